// Warp-level multisplit: which lanes of this subgroup hold the same digit. Masks are uvec4
// ballots, so every subgroup size from 4 to 128 works; only the first BALLOT_WORDS words are
// computed: at 32 lanes or fewer that is one word, and the other three vanish at specialization.
// BALLOT_WORDS (binning_switches.glsl): ceil(largest subgroup size / 32).

uint peerCount(uvec4 m) {
  uint c = 0u;
  [[unroll]] for (uint w = 0u; w < BALLOT_WORDS; ++w) c += uint(bitCount(m[w]));
  return c;
}

// The highest lane set in a non-empty mask.
uint highestPeer(uvec4 m) {
  uint lane = 0u;
  [[unroll]] for (uint w = 0u; w < BALLOT_WORDS; ++w)
    if (m[w] != 0u) lane = w * 32u + uint(findMSB(m[w]));
  return lane;
}

uvec4 lanesBelow() {
  uvec4 m = gl_SubgroupLtMask;
  [[unroll]] for (uint w = BALLOT_WORDS; w < 4u; ++w) m[w] = 0u;
  return m;
}

// Whether no lane above this one is in `peers`: one mask test, where comparing the lane with
// highestPeer() or `before` + 1 with peerCount() takes two or three instructions.
bool isHighestPeer(uvec4 peers) {
  uvec4 above = gl_SubgroupGtMask;
  uint any = 0u;
  [[unroll]] for (uint w = 0u; w < BALLOT_WORDS; ++w) any |= peers[w] & above[w];
  return any == 0u;
}

// Lanes among `candidates` (the lanes that hold keys: this lane among them) whose digit equals
// this lane's. A caller whose every lane holds a key takes `candidates` once for many steps.
#ifdef VKSORT_RANK_PARTITIONED
uvec4 matchDigit(uint digit, uvec4 candidates) {
  return subgroupPartitionNV(digit) & candidates;
}
#else
// One ballot per digit bit.
uvec4 matchDigit(uint digit, uvec4 candidates) {
  uvec4 peers = candidates;
  [[unroll]] for (uint b = 0u; b < kRadixBits; ++b) {
    bool bit = ((digit >> b) & 1u) != 0u;
    uvec4 ones = subgroupBallot(bit);
    [[unroll]] for (uint w = 0u; w < BALLOT_WORDS; ++w) peers[w] &= bit ? ones[w] : ~ones[w];
  }
  [[unroll]] for (uint w = BALLOT_WORDS; w < 4u; ++w) peers[w] = 0u;
  return peers;
}
#endif
