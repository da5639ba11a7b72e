#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/step_core.hpp is internal: include <distarray/redist.hpp>"
#endif
// StepCore: what the typed buffers of one step (step_buffers.hpp) and their
// extensions (batch_step_buffers.hpp, decode_step_buffers.hpp) share — the
// two packers, the send buffer, where kernels run and with which element
// op, and how buffers are staged.  Staged buffers (a space MPI cannot read,
// or forced by PlanOptions::staging) have copies in pinned host memory.  The
// message to oneself is in no buffer: it is copied straight from the source
// block to the destination block (own_message.hpp).

#include <distarray/core/checked.hpp>
#include <distarray/redist/detail/exec/exchange_buffers.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/detail/kernels/packer.hpp>

#include <Kokkos_Core.hpp>

#include <chrono>
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

}  // namespace distarray::detail
