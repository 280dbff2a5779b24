// warpcheck's drop-in recorder (warpcheck::recorder): record the operations
// of an existing CUDA kernel, or of host threads, into a history that
// `warpcheck check` decides. docs/bring-your-own.md walks through it.
//
//   using namespace warpcheck;
//   record::Settings s{.model = "queue", .team = record::team_kind::thread,
//                      .teams = record::teams_for(record::team_kind::thread, grid, block), .ops_per_team = 2};
//   record::Recorder rec(s);
//   my_kernel<<<grid, block>>>(..., rec.view());
//       // in the kernel, around each operation:
//       //   record::op_handle op = log.begin(OpKind::Enqueue, v);   (before its first shared access)
//       //   ... the operation ...
//       //   log.end(op);                                           (after its last)
//   record::Summary sum = rec.write("history.bin");   // sum.message says what was lost, if anything
//
// Compiled without CUDA, it offers the same calls to host threads:
// record::HostRecorder, view().begin_on(stream, lane, kind, ...), and
// record::teams_for(team, blocks, threads_per_block) (no dim3 needed).
#pragma once
#include "stress/recorder/recorder.hpp"
#if defined(__CUDACC__)
#include "stress/recorder/bulk_record.cuh"
#include "stress/recorder/device_recorder.cuh"
#endif
