#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// StepBuffers: the typed half of one exchange step (StepHalf for T in
// Space) — the receive buffer and the copy of the message to oneself beside
// StepCore, what it shares with the batch and decode extensions
// (batch_step_buffers.hpp, decode_step_buffers.hpp; built on first use): the
// two packers, the send buffer, where kernels run and with which element
// op, and how buffers are staged.  Staged buffers (a space MPI cannot read,
// or forced by PlanOptions::staging) have copies in pinned host memory.  The
// message to oneself is in no buffer: it is copied straight from the source
// block to the destination block (own_message.hpp).  Everything an
// execution uses is allocated before it: executions allocate nothing
// (decoded encoded-message tables are kept).

#include <distarray/core/checked.hpp>
#include <distarray/redist/detail/exec/exchange_buffers.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/detail/kernels/own_message.hpp>
#include <distarray/redist/detail/kernels/packer.hpp>

#include <Kokkos_Core.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace distarray::detail {

/// Host memory for staged buffers: page-locked where the backend has it, so
/// that copies to and from a GPU run at full speed without a bounce buffer.
#if KOKKOS_VERSION >= 40000
using StagingSpace = Kokkos::SharedHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif

/// A buffer in Space and, when staged, its copy in pinned host memory.
template <class T, class Space>
struct StagedBuffer {
  Kokkos::View<T*, Space> device;
  Kokkos::View<T*, StagingSpace> host;  ///< staged only

  StagedBuffer() = default;
  StagedBuffer(const std::string& label, index_t elements, bool staged)
      : device(Kokkos::view_alloc(label, Kokkos::WithoutInitializing), elements),
        host(staged ? Kokkos::View<T*, StagingSpace>(
                          Kokkos::view_alloc(label + "_host", Kokkos::WithoutInitializing), elements)
                    : Kokkos::View<T*, StagingSpace>()),
        made_as{label, elements, staged} {}
  /// Reallocated only to grow to `elements`.
  void grow(const std::string& label, index_t elements, bool staged) {
    if (index_t(device.size()) < elements) *this = StagedBuffer(label, elements, staged);
  }
  /// Freed (`on` false), or allocated again as it was made.
  void hold(bool on) {
    if (!on) {
      device = {};
      host = {};
    } else if (!device.data() && made_as.elements > 0) {
      *this = StagedBuffer(made_as.label, made_as.elements, made_as.staged);
    }
  }
  /// The bytes MPI reads and writes.
  char* bytes() const { return reinterpret_cast<char*>(host.data() ? host.data() : device.data()); }

 private:
  struct MadeAs {
    std::string label;
    index_t elements = 0;
    bool staged = false;
  } made_as;
};

template <class T, class Space>
struct StepCore {
  using execution_space = typename Space::execution_space;
  using Range = std::pair<index_t, index_t>;

  /// `staged`: MPI reads and writes host copies of the buffers.
  StepCore(const CopyTable& send_table, const CopyTable& recv_table, const ExchangeChoice& choice,
           bool staged, ExchangeCounters& counters)
      : send(send_table), recv(recv_table), staged(staged), counters(counters) {
    checked_bytes(send_table.total, sizeof(T));
    checked_bytes(recv_table.total, sizeof(T));
    send_buf =
        StagedBuffer<T, Space>("distarray::send_buffer", choice.send_buffer() ? send_table.total : 0, staged);
  }

  /// f(op) with the element op the step runs now; returns f's launches.
  template <class F>
  int with_op(F&& f) const {
    return scaling ? f(*scaling) : f(PlainCopy<T>{});
  }

  /// Copies `from` into `to` (a buffer and its staging copy, either way) on
  /// the step's instance; adds the time to `seconds`.
  template <class To, class From>
  void stage(const To& to, const From& from, double& seconds) const {
    const auto start = std::chrono::steady_clock::now();
    if (to.size() > 0) Kokkos::deep_copy(exec, to, from);
    exec.fence();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  /// Elements [first, last) of a staged buffer to MPI (`out`) or from it.
  void stage_part(const StagedBuffer<T, Space>& b, Range part, bool out) const {
    if (!staged || part.first >= part.second) return;
    if (out)
      stage(Kokkos::subview(b.host, part), Kokkos::subview(b.device, part), counters.staging_out_seconds);
    else
      stage(Kokkos::subview(b.device, part), Kokkos::subview(b.host, part), counters.staging_in_seconds);
  }

  Packer<T, Space> send, recv;
  bool staged;
  std::optional<ScaledCopy<T>> scaling;  // none: a plain copy
  execution_space exec;                  // where packs and unpacks run (StepBuffers::run_on)
  ExchangeCounters& counters;
  StagedBuffer<T, Space> send_buf;
};

// The extensions, built from the core: declared here, defined beside them
// (batch_, decode_ and placed_step_buffers.hpp, which need StepCore whole);
// step.hpp includes them, so every StepBuffers it builds has them.
template <class T, class Space>
std::unique_ptr<BatchBuffers> make_batch_buffers(const StepCore<T, Space>& core);
template <class T, class Space>
std::unique_ptr<DecodeBuffers> make_decode_buffers(const StepCore<T, Space>& core);
template <class T, class Space>
std::unique_ptr<PlacedBuffers> make_placed_buffers(const StepCore<T, Space>& core, const CopyTable& placed);

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
        own_(own.table, PackedFor::this_rank),
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
  }
  void hold_buffers(bool send, bool recv) override {
    core_.send_buf.hold(send);
    recv_buf_.hold(recv);
  }

  BatchBuffers& batch(int k) override {
    if (!batch_) batch_ = make_batch_buffers(core_);
    batch_->prepare(k);
    return *batch_;
  }
  DecodeBuffers& decoded() override {
    if (!decoded_) decoded_ = make_decode_buffers(core_);
    return *decoded_;
  }
  PlacedBuffers& placed(const CopyTable& placed) override {
    placed_ = make_placed_buffers(core_, placed);
    return *placed_;
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
  std::unique_ptr<BatchBuffers> batch_;     // built by the first batch()
  std::unique_ptr<DecodeBuffers> decoded_;  // built by the first decoded()
  std::unique_ptr<PlacedBuffers> placed_;   // built by placed()
};

}  // namespace distarray::detail
