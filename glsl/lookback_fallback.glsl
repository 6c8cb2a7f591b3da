// The look-back's fallback count (lookback.glsl's fallbackTileCount()): a predecessor tile's count
// of one digit, from that tile's keys, by one invocation alone. The kernel names where this
// pass's tiles are, as expressions evaluated only when a look-back falls back (nothing is kept
// live for it in the common path): FALLBACK_KEYS (the portion's first input key), FALLBACK_TILE_KEYS,
// FALLBACK_KEY_COUNT (keys in the portion) and FALLBACK_SHIFT (the pass's digit). Included after
// the binning phases (KEYS_IN).
#ifndef VKSORT_LOOKBACK_FALLBACK_GLSL
#define VKSORT_LOOKBACK_FALLBACK_GLSL
#if !defined(FALLBACK_KEYS) || !defined(FALLBACK_TILE_KEYS) || !defined(FALLBACK_KEY_COUNT) || !defined(FALLBACK_SHIFT)
#error "lookback_fallback.glsl: the kernel defines FALLBACK_KEYS, FALLBACK_TILE_KEYS, FALLBACK_KEY_COUNT and FALLBACK_SHIFT"
#endif

// 8 keys a turn: llvmpipe's loop limiter counts turns (patient_wait.glsl).
const uint kFallbackStep = 8u;
uint fallbackTileCount(uint tile, uint digit) {
  uint tileKeys = FALLBACK_TILE_KEYS, shift = FALLBACK_SHIFT;
  uint first = tile * tileKeys, n = min(tileKeys, FALLBACK_KEY_COUNT - first);
  uvec2 at = addressAt(FALLBACK_KEYS, first, KEY_LOG2_BYTES);
  uint c = 0u;
  for (uint i = 0u; i < n; i += kFallbackStep) {
    [[unroll]] for (uint k = 0u; k < kFallbackStep; ++k)
      if (i + k < n && inputDigitOf(KEYS_IN(at).v[i + k], shift) == digit) ++c;
  }
  return c;
}

#endif  // VKSORT_LOOKBACK_FALLBACK_GLSL
