// Recording a library's host-side bulk call (insert(first, last),
// find(first, last, out), ...): the call's operations are its elements,
// each on its own thread stream (first_stream + i). begin_bulk launches a
// kernel that begins every one of them, on the call's CUDA stream, before
// the call; end_bulk one that ends them, with their results, after it.
// Every stamp of the call then lies between the two launches, and the
// operations are concurrent with one another, as a bulk call's contract
// has them (no order among its elements is promised). Two bulk calls on
// one CUDA stream are ordered, so one history holds a whole phase
// sequence: a launch boundary is an exact cut.
//
//   record::begin_bulk(log, n, handles, [=] __device__(uint64_t i) {
//     return record::bulk_op{OpKind::Insert, keys[i], values[i]}; });
//   map.insert(pairs, pairs + n, inserted);                  // the library's bulk call
//   record::end_bulk(log, n, handles, [=] __device__(uint64_t i) {
//     return record::bulk_result{ResultKind::Bool, inserted[i]}; });
//
// `handles` is device memory for n op_handles; the recorder's teams must
// cover first_stream + n thread streams (team_kind::thread). Lambdas need
// nvcc's --extended-lambda.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "structures/core/recorder/drop_in_log.hpp"

namespace warpcheck::record {

struct bulk_op {
  OpKind kind = OpKind::Insert;
  int64_t key = 0, value = 0, expected = 0;
};

struct bulk_result {
  ResultKind kind = ResultKind::None;
  int64_t value = 0;
};

namespace detail {

template <class Describe>
__global__ void begin_bulk_ops(log_view log, uint64_t n, uint32_t first_stream, op_handle* handles, Describe d) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const bulk_op op = d(i);
    handles[i] = log.begin_on(static_cast<uint32_t>(first_stream + i), 0, op.kind, op.key, op.value, op.expected);
  }
}

template <class Result>
__global__ void end_bulk_ops(log_view log, uint64_t n, const op_handle* handles, Result r) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const bulk_result res = r(i);
    log.end(handles[i], res.kind, res.value);
  }
}

inline void check_bulk_launch(const log_view& log, uint64_t n, uint32_t first_stream, const char* what) {
  if (log.log.records && log.team != team_kind::thread)
    throw std::invalid_argument(std::string("recorder: ") + what + ": bulk operations are thread streams (team_kind::thread)");
  if (log.log.records && first_stream + n > log.log.streams)
    throw std::invalid_argument(std::string("recorder: ") + what + ": " + std::to_string(n) +
                                " bulk operations from stream " + std::to_string(first_stream) + " need " +
                                std::to_string(first_stream + n) + " teams, the recorder has " +
                                std::to_string(log.log.streams));
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(std::string("recorder: ") + what + ": an earlier CUDA error: " + cudaGetErrorString(e));
}

inline unsigned bulk_blocks(uint64_t n) { return static_cast<unsigned>(n / 256 + 1 < 65535 ? n / 256 + 1 : 65535); }

}  // namespace detail

// Begins the n operations of a bulk call, d(i) -> bulk_op describing the
// i-th (a __device__ callable), on `stream`, before the call is launched.
template <class Describe>
void begin_bulk(const log_view& log, uint64_t n, op_handle* handles, Describe d, cudaStream_t stream = 0,
                uint32_t first_stream = 0) {
  detail::check_bulk_launch(log, n, first_stream, "begin_bulk");
  if (n == 0) return;
  detail::begin_bulk_ops<<<detail::bulk_blocks(n), 256, 0, stream>>>(log, n, first_stream, handles, d);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(std::string("recorder: begin_bulk: ") + cudaGetErrorString(e));
}

// Ends them, r(i) -> bulk_result the i-th's response (read from the
// call's outputs), on `stream`, after the call.
template <class Result>
void end_bulk(const log_view& log, uint64_t n, const op_handle* handles, Result r, cudaStream_t stream = 0) {
  detail::check_bulk_launch(log, n, 0, "end_bulk");
  if (n == 0) return;
  detail::end_bulk_ops<<<detail::bulk_blocks(n), 256, 0, stream>>>(log, n, handles, r);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(std::string("recorder: end_bulk: ") + cudaGetErrorString(e));
}

}  // namespace warpcheck::record
