// Two-phase tile renderer, pass 3b, one workgroup: blockSums from each block's copies to the slot
// its first copy takes (an exclusive prefix sum, kBlocksPerThread blocks a thread per round); the
// total into the copies count (the tile sort's count) and the ranges pass's dispatch.
#version 450
#include "sorted_copies.glsl"

const uint kBlocksPerThread = 8u;  // 2048 blocks a round: 3M splats take 6

void main() {
  uint blocks = (visibleSplats() + SPLATS_COPY_BLOCK - 1u) / SPLATS_COPY_BLOCK;
  uint carry = 0u;  // copies of the rounds before
  for (uint base = 0u; base < blocks; base += kScanThreads * kBlocksPerThread) {
    uint first = base + gl_LocalInvocationIndex * kBlocksPerThread;
    uint counts[kBlocksPerThread];
    uint mine = 0u;
    for (uint j = 0u; j < kBlocksPerThread; ++j) {
      counts[j] = first + j < blocks ? frame.blockSums.v[first + j] : 0u;
      mine += counts[j];
    }
    uint total;
    uint slot = carry + workgroupInclusiveSum(mine, total) - mine;
    for (uint j = 0u; j < kBlocksPerThread && first + j < blocks; ++j) {
      frame.blockSums.v[first + j] = slot;
      slot += counts[j];
    }
    carry += total;
  }
  if (gl_LocalInvocationIndex == 0u) {
    frame.counts.v[kCountCopies] = carry;
    frame.counts.v[kCountRangesDispatch] = (min(carry, frame.capacity) + 255u) / 256u;
    frame.counts.v[kCountRangesDispatch + 1u] = 1u;
    frame.counts.v[kCountRangesDispatch + 2u] = 1u;
  }
}
