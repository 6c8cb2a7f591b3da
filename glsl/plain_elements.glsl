// The binning hooks KEYS_IN ... VALS_OUT64 (binning_switches.glsl) as common.glsl's reference
// types: for kernels that read one buffer and write another (onesweep.glsl, downsweep.glsl).
#define KEYS_IN KeysIn
#define KEYS_OUT KeysOut
#define VALS_IN ValsIn
#define VALS_IN64 ValsIn64
#define VALS_OUT ValsOut
#define VALS_OUT64 ValsOut64
