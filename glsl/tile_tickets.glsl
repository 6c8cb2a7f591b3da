// Tile tickets: a binning workgroup's tiles are numbered in the order workgroups ask for them,
// one counter per binning dispatch (pc.tickets[pc.ticketCounter], zeroed by init.comp). With
// PERSISTENT_TILES (the tuning's choice, binning_switches.glsl) a workgroup takes tile after tile
// while tickets last and loads its next tile while it scatters the current one
// (binning_next_tile.glsl): where one workgroup fills an SM's shared memory, nothing else hides
// its load latency.
#ifndef VKSORT_TILE_TICKETS_GLSL
#define VKSORT_TILE_TICKETS_GLSL
#if !TAKES_TICKETS
#error "tile_tickets.glsl: for the kernels binning_switches.glsl gives PERSISTENT_TILES"
#endif
shared uint s_ticket;  // a ticket just taken

// The counter by index into the sort's, not as an address of its own: the word is the same, but
// with the address NVIDIA's driver compiled the 896 x 20 keys32 tile (at its register edge) into
// a much slower kernel (PERFORMANCE-LOG.md, s57).
uint ticket() { return atomicAdd(pc.tickets.v[pc.ticketCounter], 1u); }
// Thread 0 takes a tile ticket into s_ticket (behind a barrier before anyone reads it).
void takeTicket() {
  if (gl_LocalInvocationIndex == 0u) s_ticket = ticket();
}

#endif  // VKSORT_TILE_TICKETS_GLSL
