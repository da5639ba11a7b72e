#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/placed_step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// PlacedStepBuffers: the placed extension of a step's typed buffers
// (exchange_buffers.hpp's PlacedBuffers) for the shared engine — a packer of
// the send table whose messages land in the receivers' buffers, and the
// step's receive packer reading from wherever the messages landed.  Its
// launches are not fenced: the engine's segments order them
// (redist/src/exchange/node_segments.hpp).

#include <distarray/redist/detail/exec/step_buffers.hpp>

#include <memory>
#include <type_traits>

namespace distarray::detail {

template <class T, class Space>
class PlacedStepBuffers final : public PlacedBuffers {
 public:
  PlacedStepBuffers(const StepCore<T, Space>& core, const CopyTable& placed) : core_(core), send_(placed) {}

  void pack(const void* in, char* base) override {
    T* const local = const_cast<T*>(static_cast<const T*>(in));
    core_.counters.pack_launches += core_.with_op(
        [&](auto op) { return send_.copy_all(local, reinterpret_cast<T*>(base), true, op, core_.exec); });
  }
  void unpack(const char* received, void* out) override {
    T* const from = const_cast<T*>(reinterpret_cast<const T*>(received));
    core_.counters.unpack_launches += core_.with_op(
        [&](auto op) { return core_.recv.copy_all(static_cast<T*>(out), from, false, op, core_.exec); });
  }
  void set_other_nodes(const CopyTable& outgoing, const CopyTable& incoming) override {
    outgoing_ = Packer<T, Space>(outgoing);
    incoming_ = Packer<T, Space>(incoming);
  }
  void set_joined(const CopyTable& from_source, const CopyTable& into_destinations) override {
    from_source_ = Packer<T, Space>(from_source, PackedFor::this_rank);
    into_destinations_ = Packer<T, Space>(into_destinations, PackedFor::this_rank);
  }
  void pass(const void* in, char* destinations, char* base) override {
    T* const source = const_cast<T*>(static_cast<const T*>(in));
    T* const to = reinterpret_cast<T*>(destinations);
    core_.counters.pack_launches += core_.with_op([&](auto op) {
      const Direct<T, decltype(op)> direct{op};
      return outgoing_.copy_all(source, reinterpret_cast<T*>(base), true, op, core_.exec) +
             from_source_.copy_all(source, to, true, direct, core_.exec) +
             into_destinations_.copy_all(to, source, false, direct, core_.exec);
    });
  }
  void unpack_incoming(const char* received, void* out) override {
    T* const from = const_cast<T*>(reinterpret_cast<const T*>(received));
    core_.counters.unpack_launches += core_.with_op(
        [&](auto op) { return incoming_.copy_all(static_cast<T*>(out), from, false, op, core_.exec); });
  }
  void fence() override { core_.exec.fence(); }
  void* device_stream() override {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<typename Space::execution_space, Kokkos::Cuda>)
      return core_.exec.cuda_stream();
#elif defined(KOKKOS_ENABLE_HIP)
    if constexpr (std::is_same_v<typename Space::execution_space, Kokkos::HIP>)
      return core_.exec.hip_stream();
#endif
    return nullptr;
  }

 private:
  const StepCore<T, Space>& core_;
  Packer<T, Space> send_;  // the send table, placed
  // One pass (PlacedBuffers::pass): the joined tables, the other nodes' messages
  Packer<T, Space> from_source_, into_destinations_, outgoing_, incoming_;
};

template <class T, class Space>
std::unique_ptr<PlacedBuffers> make_placed_buffers(const StepCore<T, Space>& core, const CopyTable& placed) {
  return std::make_unique<PlacedStepBuffers<T, Space>>(core, placed);
}

}  // namespace distarray::detail
