// Warp-level multisplit: which lanes of this subgroup hold the same digit. Ballot masks are
// uvec4, so every subgroup size from 4 to 128 works.

uint popcount4(uvec4 m) {
  uvec4 c = uvec4(bitCount(m));
  return c.x + c.y + c.z + c.w;
}

// Lanes (among those with `valid`) whose digit equals this lane's: one ballot per digit bit.
uvec4 matchDigit(uint digit, bool valid) {
  uvec4 peers = subgroupBallot(valid);
  for (uint b = 0u; b < kRadixBits; ++b) {
    bool bit = ((digit >> b) & 1u) != 0u;
    uvec4 ones = subgroupBallot(bit);
    peers &= bit ? ones : ~ones;
  }
  return peers;
}
