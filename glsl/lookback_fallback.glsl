// The look-back's fallback count (lookback.glsl's fallbackTileCount()): a predecessor tile's count
// of one digit, from that tile's keys, by one invocation alone. The kernel sets where this pass's
// tiles are (fallbackSetPass) before its look-back. Included after the binning phases (KEYS_IN).
#ifndef VKSORT_LOOKBACK_FALLBACK_GLSL
#define VKSORT_LOOKBACK_FALLBACK_GLSL

uvec2 g_fallbackKeys;     // the portion's first key of this pass's input
uint g_fallbackTileKeys;  // keys per tile
uint g_fallbackKeyCount;  // keys in the portion
uint g_fallbackShift;     // the pass's digit

void fallbackSetPass(uvec2 keys, uint tileKeys, uint keyCount, uint shift) {
  g_fallbackKeys = keys;
  g_fallbackTileKeys = tileKeys;
  g_fallbackKeyCount = keyCount;
  g_fallbackShift = shift;
}

// 8 keys a turn: llvmpipe's loop limiter counts turns (patient_wait.glsl).
const uint kFallbackStep = 8u;
uint fallbackTileCount(uint tile, uint digit) {
  uint first = tile * g_fallbackTileKeys, n = min(g_fallbackTileKeys, g_fallbackKeyCount - first);
  uvec2 at = addressAt(g_fallbackKeys, first, KEY_LOG2_BYTES);
  uint c = 0u;
  for (uint i = 0u; i < n; i += kFallbackStep) {
    [[unroll]] for (uint k = 0u; k < kFallbackStep; ++k)
      if (i + k < n && digitOf(KEYS_IN(at).v[i + k], g_fallbackShift) == digit) ++c;
  }
  return c;
}

#endif  // VKSORT_LOOKBACK_FALLBACK_GLSL
