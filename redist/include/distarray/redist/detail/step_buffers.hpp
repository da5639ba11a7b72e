#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// StepBuffers: the typed half of one exchange step — the two packers, the
// send and receive buffers in the arrays' memory space and, when the buffers
// are staged (a space MPI cannot read, or forced by PlanOptions::staging),
// their copies in pinned host memory.  Only what crosses a process boundary
// is staged: the message to oneself stays in the send buffer, from which it
// is unpacked (except for engines that may move it by datatype).
// Everything is allocated when the step is built; executions allocate
// nothing (decoded encoded-message tables are kept).

#include <distarray/core/checked.hpp>
#include <distarray/redist/detail/exchange_buffers.hpp>
#include <distarray/redist/detail/exchange_choice.hpp>
#include <distarray/redist/detail/packer.hpp>

#include <Kokkos_Core.hpp>

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

/// Host memory for staged buffers: page-locked where the backend has it, so
/// that copies to and from a GPU run at full speed without a bounce buffer.
#if KOKKOS_VERSION >= 40000
using StagingSpace = Kokkos::SharedHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif

template <class T, class Space>
class StepBuffers final : public ExchangeBuffers {
  using Buffer = Kokkos::View<T*, Space>;
  using execution_space = typename Space::execution_space;
  using Mirror = Kokkos::View<T*, StagingSpace>;
  using Range = std::pair<index_t, index_t>;

 public:
  /// `rank`: this rank in the exchange's communicator; `staged`: MPI reads
  /// and writes host mirrors of the buffers.
  StepBuffers(const CopyTable& send, const CopyTable& recv, int rank, const ExchangeChoice& choice,
              bool staged)
      : send_(send),
        recv_(recv),
        send_total_(send.total),
        recv_total_(recv.total),
        staged_(staged),
        self_(self_message(send, recv, rank)),
        // Datatype engines (and the automatic trial of one) may move the message to oneself through MPI.
        self_on_device_(self_ && choice.engine != ExchangeEngine::datatype &&
                        choice.engine != ExchangeEngine::automatic) {
    checked_bytes(send.total, sizeof(T));
    checked_bytes(recv.total, sizeof(T));
    send_buf_ = buffer("distarray::send_buffer", choice.send_buffer() ? send.total : 0, send_host_);
    recv_buf_ = buffer("distarray::recv_buffer", choice.recv_buffer() ? recv.total : 0, recv_host_);
  }

  void pack(const void* in, bool stage_now) override {
    T* const local = const_cast<T*>(static_cast<const T*>(in));
    pack_launches +=
        with_op([&](auto op) { return send_.copy_all(local, {send_buf_.data()}, true, op, exec_); });
    exec_.fence();  // complete before MPI reads the buffer
    if (staged_ && stage_now) stage(send_host_, send_buf_, self_range(true, 1), staging_out_seconds);
  }
  void stage_message(std::size_t i) override {
    if (!staged_) return;
    const CopyTable::Message& m = send_.messages()[i];
    const Range part(m.offset, m.offset + m.count);
    stage(Kokkos::subview(send_host_, part), Kokkos::subview(send_buf_, part), {0, 0}, staging_out_seconds);
  }
  char* send_bytes() override { return bytes(staged_ ? send_host_.data() : send_buf_.data()); }
  char* recv_bytes() override { return bytes(staged_ ? recv_host_.data() : recv_buf_.data()); }

  void unpack(void* out, bool self_from_send) override {
    if (staged_) stage(recv_buf_, recv_host_, self_range(false, 1), staging_in_seconds);
    self_from_send = self_from_send || self_on_device_;
    const auto all = std::pair(std::size_t(0), recv_.messages().size());
    unpack_launches += with_op([&](auto op) {
      return recv_.copy(all.first, all.second, typed(out), window(self_from_send), false, op, exec_);
    });
    exec_.fence();
  }
  void unpack_message(std::size_t i, void* out) override {
    const CopyTable::Message& m = recv_.messages()[i];
    if (staged_)
      stage(Kokkos::subview(recv_buf_, Range(m.offset, m.offset + m.count)),
            Kokkos::subview(recv_host_, Range(m.offset, m.offset + m.count)), {0, 0}, staging_in_seconds);
    unpack_launches += with_op(
        [&](auto op) { return recv_.copy(i, i + 1, typed(out), {recv_buf_.data()}, false, op, exec_); });
    exec_.fence();
  }
  void unpack_self(void* out) override {
    if (!self_) return;
    unpack_launches += with_op([&](auto op) {
      return recv_.copy(self_->second, self_->second + 1, typed(out), window(true), false, op, exec_);
    });
    exec_.fence();
  }

  void prepare_batch(int k) override {
    if (index_t(batch_send_.size()) != k) {
      batch_send_.clear();
      batch_recv_.clear();
      for (index_t j = 0; j < k; ++j) {
        batch_send_.push_back(send_.batched(k, j));
        batch_recv_.push_back(recv_.batched(k, j));
      }
    }
    grow(batch_send_buf_, batch_send_host_, "distarray::batch_send", k * send_total_);
    grow(batch_recv_buf_, batch_recv_host_, "distarray::batch_recv", k * recv_total_);
  }
  void pack_batch(const void* const* in, int k) override {
    for (int j = 0; j < k; ++j) {
      T* const local = const_cast<T*>(static_cast<const T*>(in[j]));
      pack_launches += with_op([&](auto op) {
        return batch_send_[std::size_t(j)].copy_all(local, {batch_send_buf_.data()}, true, op, exec_);
      });
    }
    exec_.fence();  // complete before MPI reads the buffer
    if (staged_) stage(batch_send_host_, batch_send_buf_, self_range(true, k), staging_out_seconds);
  }
  char* batch_bytes(bool send) override {
    if (staged_) return bytes(send ? batch_send_host_.data() : batch_recv_host_.data());
    return bytes(send ? batch_send_buf_.data() : batch_recv_buf_.data());
  }
  void unpack_batch(void* const* out, int k) override {
    if (staged_) stage(batch_recv_buf_, batch_recv_host_, self_range(false, k), staging_in_seconds);
    BufferWindow<T> w{batch_recv_buf_.data()};
    if (self_) {  // the message to oneself, read from the send buffer (equation as in window())
      const CopyTable::Message& s = send_.messages()[self_->first];
      const CopyTable::Message& r = recv_.messages()[self_->second];
      w.alt = batch_send_buf_.data();
      w.alt_shift = k * (s.offset - r.offset);
      w.alt_begin = r.rows_begin;
      w.alt_end = r.rows_end;
    }
    for (int j = 0; j < k; ++j)
      unpack_launches += with_op(
          [&](auto op) { return batch_recv_[std::size_t(j)].copy_all(typed(out[j]), w, false, op, exec_); });
    exec_.fence();
  }

  char* scratch_bytes(index_t elements) override {
    grow(scratch_, scratch_host_, "distarray::encoded_scratch", elements);
    return bytes(staged_ ? scratch_host_.data() : scratch_.data());
  }
  index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) override {
    auto& [kept_header, table] = decoded_[source];
    if (kept_header != header) {
      kept_header = header;
      table = Packer<T, Space>(decode(source, header));
    }
    return decode_count(table);
  }
  void unpack_decoded(int source, void* out, index_t send_offset) override {
    const Packer<T, Space>& table = decoded_.at(source).second;
    T* from = send_offset >= 0 ? send_buf_.data() + send_offset : scratch_.data();
    if (send_offset < 0 && staged_)
      stage(Kokkos::subview(scratch_, Range(0, decode_count(table))),
            Kokkos::subview(scratch_host_, Range(0, decode_count(table))), {0, 0}, staging_in_seconds);
    unpack_launches += with_op([&](auto op) { return table.copy_all(typed(out), {from}, false, op, exec_); });
    exec_.fence();
  }

  void use_instance(const void* exec) override {
    exec_ = exec ? *static_cast<const execution_space*>(exec) : execution_space();
  }

  void set_element_op(const void* scaled_copy) override {
    scaled_ = scaled_copy != nullptr;
    if (scaled_) scaling_ = *static_cast<const ScaledCopy<T>*>(scaled_copy);
  }

  void release(bool send, bool recv) override {
    if (send) send_buf_ = Buffer(), send_host_ = Mirror();
    if (recv) recv_buf_ = Buffer(), recv_host_ = Mirror();
  }

 private:
  static index_t decode_count(const Packer<T, Space>& p) {
    return p.messages().empty() ? 0 : p.messages().back().offset + p.messages().back().count;
  }
  /// f(op) with the element op the step runs now.
  template <class F>
  int with_op(F&& f) const {
    return scaled_ ? f(scaling_) : f(PlainCopy<T>{});
  }
  static char* bytes(T* p) { return reinterpret_cast<char*>(p); }
  static T* typed(void* p) { return static_cast<T*>(p); }

  /// `b` (and its host mirror) of at least `elements`: reallocated only to grow.
  void grow(Buffer& b, Mirror& host, const char* label, index_t elements) const {
    if (index_t(b.size()) < elements) b = buffer(label, elements, host);
  }

  Buffer buffer(const char* label, index_t elements, Mirror& host) const {
    const auto alloc = Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing);
    host = staged_ ? Mirror(Kokkos::view_alloc(std::string(label) + "_host", Kokkos::WithoutInitializing),
                            elements)
                   : Mirror();
    return Buffer(alloc, elements);
  }

  /// The elements of the message to oneself in a send or receive buffer of
  /// k arrays, where it stays on the device (empty where it is staged).
  Range self_range(bool send, index_t k) const {
    if (!self_on_device_) return {0, 0};
    const CopyTable::Message& m = send ? send_.messages()[self_->first] : recv_.messages()[self_->second];
    return {k * m.offset, k * (m.offset + m.count)};
  }
  /// Copies `from` into `to` (a buffer and its staging copy, either way)
  /// except the elements `skip`, on this step's instance; adds the time to `seconds`.
  template <class To, class From>
  void stage(const To& to, const From& from, Range skip, double& seconds) const {
    const auto start = std::chrono::steady_clock::now();
    const index_t n = index_t(to.size());
    for (const Range& part : {Range(0, skip.first), Range(skip.second, n)})
      if (part.first < part.second)
        Kokkos::deep_copy(exec_, Kokkos::subview(to, part), Kokkos::subview(from, part));
    exec_.fence();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  /// The receive buffer, with the message to oneself read from the send buffer when asked.
  BufferWindow<T> window(bool self_from_send) const {
    BufferWindow<T> w{recv_buf_.data()};
    if (!self_from_send || !self_) return w;
    const CopyTable::Message& s = send_.messages()[self_->first];
    const CopyTable::Message& r = recv_.messages()[self_->second];
    w.alt = send_buf_.data();
    w.alt_shift = s.offset - r.offset;
    w.alt_begin = r.rows_begin;
    w.alt_end = r.rows_end;
    return w;
  }

  Packer<T, Space> send_, recv_;
  index_t send_total_, recv_total_;  // elements of one copy of each buffer
  bool staged_;
  std::optional<std::pair<std::size_t, std::size_t>> self_;
  bool self_on_device_;  // staging skips the message to oneself, unpacked from the send buffer
  bool scaled_ = false;
  ScaledCopy<T> scaling_;
  execution_space exec_;  // where packs and unpacks run (use_instance)
  Buffer send_buf_, recv_buf_, scratch_, batch_send_buf_, batch_recv_buf_;
  Mirror send_host_, recv_host_, scratch_host_, batch_send_host_, batch_recv_host_;  // staged only
  std::map<int, std::pair<std::vector<index_t>, Packer<T, Space>>> decoded_;         // encoded: per source
  std::vector<Packer<T, Space>> batch_send_, batch_recv_;                            // per array of a batch
};

}  // namespace distarray::detail
