#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// StepBuffers: the typed half of one exchange step (StepHalf for T in
// Space) — the receive buffer and the copy of the message to oneself beside
// what StepCore shares with the batch and decode extensions, which are built
// on first use.  Everything an execution uses is allocated before it:
// executions allocate nothing (decoded encoded-message tables are kept).

#include <distarray/redist/detail/exec/batch_step_buffers.hpp>
#include <distarray/redist/detail/exec/decode_step_buffers.hpp>
#include <distarray/redist/detail/exec/step_core.hpp>
#include <distarray/redist/detail/kernels/own_message.hpp>

#include <memory>

namespace distarray::detail {

template <class T, class Space>
class StepBuffers final : public StepHalf {
  using execution_space = typename Space::execution_space;
  using Range = std::pair<index_t, index_t>;

 public:
  /// `send` and `recv` without the message to oneself, which is `own`;
  /// `staged`: MPI reads and writes host copies of the buffers.
  StepBuffers(const CopyTable& send, const CopyTable& recv, const OwnCopy& own, const ExchangeChoice& choice,
              bool staged)
      : core_(send, recv, choice, staged, counters),
        recv_buf_("distarray::recv_buffer", choice.recv_buffer() ? recv.total : 0, staged),
        own_(own.table),
        own_from_source_(own.table_is_source) {}

  void pack(const void* in) override {
    pack_unstaged(in);
    if (core_.staged) core_.stage(core_.send_buf.host, core_.send_buf.device, counters.staging_out_seconds);
  }
  void pack_unstaged(const void* in) override {
    T* const local = const_cast<T*>(static_cast<const T*>(in));
    counters.pack_launches += core_.with_op([&](auto op) {
      return core_.send.copy_all(local, core_.send_buf.device.data(), true, op, core_.exec);
    });
    core_.exec.fence();  // complete before MPI reads the buffer
  }
  void stage_messages(std::size_t first, std::size_t last) override {
    core_.stage_part(core_.send_buf, part(core_.send, first, last), true);
  }
  char* send_bytes() override { return core_.send_buf.bytes(); }
  char* recv_bytes() override { return recv_buf_.bytes(); }

  void unpack(void* out) override {
    if (core_.staged) core_.stage(recv_buf_.device, recv_buf_.host, counters.staging_in_seconds);
    launch_unpack(0, core_.recv.messages().size(), out);
  }
  void unpack_messages(std::size_t first, std::size_t last, void* out) override {
    core_.stage_part(recv_buf_, part(core_.recv, first, last), false);
    launch_unpack(first, last, out);
  }
  void copy_own(std::span<const void* const> in, std::span<void* const> out) override {
    for (std::size_t j = 0; j < in.size(); ++j) {
      T* const source = const_cast<T*>(static_cast<const T*>(in[j]));
      T* const destination = static_cast<T*>(out[j]);
      T* const local = own_from_source_ ? source : destination;
      T* const other = own_from_source_ ? destination : source;
      counters.own_launches += core_.with_op([&](auto op) {
        return own_.copy_all(local, other, own_from_source_, Direct<T, decltype(op)>{op}, core_.exec);
      });
    }
    core_.exec.fence();
  }
  void hold_buffers(bool send, bool recv) override {
    core_.send_buf.hold(send);
    recv_buf_.hold(recv);
  }

  BatchBuffers& batch(int k) override {
    if (!batch_) batch_ = std::make_unique<BatchStepBuffers<T, Space>>(core_);
    batch_->prepare(k);
    return *batch_;
  }
  DecodeBuffers& decoded() override {
    if (!decoded_) decoded_ = std::make_unique<DecodeStepBuffers<T, Space>>(core_);
    return *decoded_;
  }

  /// The packs and unpacks that follow run on `exec`.
  void run_on(const execution_space& exec) { core_.exec = exec; }
  /// ... and apply `scaling` (none: a plain copy); engines that move a side
  /// in place (datatypes) copy plainly there.
  void scale(const std::optional<ScaledCopy<T>>& scaling) { core_.scaling = scaling; }

 private:
  /// The elements of messages [first, last) of one side's buffer.
  static Range part(const Packer<T, Space>& side, std::size_t first, std::size_t last) {
    if (first >= last) return {0, 0};
    const CopyTable::Message &a = side.messages()[first], &b = side.messages()[last - 1];
    return {a.offset, b.offset + b.count};
  }
  /// Received messages [first, last) into `out` in one launch, fenced.
  void launch_unpack(std::size_t first, std::size_t last, void* out) {
    counters.unpack_launches += core_.with_op([&](auto op) {
      return core_.recv.copy(first, last, static_cast<T*>(out), recv_buf_.device.data(), false, op,
                             core_.exec);
    });
    core_.exec.fence();
  }

  StepCore<T, Space> core_;
  StagedBuffer<T, Space> recv_buf_;
  Packer<T, Space> own_;  // the message to oneself, source -> destination
  bool own_from_source_;  // own_'s rows and runs are the source's (a pack), else the destination's
  std::unique_ptr<BatchStepBuffers<T, Space>> batch_;     // built by the first batch()
  std::unique_ptr<DecodeStepBuffers<T, Space>> decoded_;  // built by the first decoded()
};

}  // namespace distarray::detail
