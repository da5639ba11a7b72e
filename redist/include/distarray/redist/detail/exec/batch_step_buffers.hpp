#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/batch_step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// BatchStepBuffers: the batch extension of a step's typed buffers
// (exchange_buffers.hpp's BatchBuffers) — a packer per array of the batch
// and the k-fold send and receive buffers, which only grow.

#include <distarray/redist/detail/exec/step_buffers.hpp>

#include <memory>
#include <vector>

namespace distarray::detail {

template <class T, class Space>
class BatchStepBuffers final : public BatchBuffers {
 public:
  explicit BatchStepBuffers(const StepCore<T, Space>& core) : core_(core) {}

  void prepare(int k) override {
    if (int(send_.size()) != k) {
      send_.clear();
      recv_.clear();
      for (index_t j = 0; j < k; ++j) {
        send_.push_back(core_.send.batched(k, j));
        recv_.push_back(core_.recv.batched(k, j));
      }
    }
    send_buf_.grow("distarray::batch_send", k * core_.send.total(), core_.staged);
    recv_buf_.grow("distarray::batch_recv", k * core_.recv.total(), core_.staged);
  }

  void pack(std::span<const void* const> in) override {
    for (std::size_t j = 0; j < in.size(); ++j) {
      T* const local = const_cast<T*>(static_cast<const T*>(in[j]));
      core_.counters.pack_launches += core_.with_op(
          [&](auto op) { return send_[j].copy_all(local, send_buf_.device.data(), true, op, core_.exec); });
    }
    core_.exec.fence();  // complete before MPI reads the buffer
    if (core_.staged) core_.stage(send_buf_.host, send_buf_.device, core_.counters.staging_out_seconds);
  }
  char* send_bytes() override { return send_buf_.bytes(); }
  char* recv_bytes() override { return recv_buf_.bytes(); }
  void unpack(std::span<void* const> out) override {
    if (core_.staged) core_.stage(recv_buf_.device, recv_buf_.host, core_.counters.staging_in_seconds);
    for (std::size_t j = 0; j < out.size(); ++j)
      core_.counters.unpack_launches += core_.with_op([&](auto op) {
        return recv_[j].copy_all(static_cast<T*>(out[j]), recv_buf_.device.data(), false, op, core_.exec);
      });
    core_.exec.fence();
  }

 private:
  const StepCore<T, Space>& core_;
  std::vector<Packer<T, Space>> send_, recv_;  // per array of the batch
  StagedBuffer<T, Space> send_buf_, recv_buf_;
};

template <class T, class Space>
std::unique_ptr<BatchBuffers> make_batch_buffers(const StepCore<T, Space>& core) {
  return std::make_unique<BatchStepBuffers<T, Space>>(core);
}

}  // namespace distarray::detail
