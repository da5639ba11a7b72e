#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/decode_step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// DecodeStepBuffers: the decode extension of a step's typed buffers
// (exchange_buffers.hpp's DecodeBuffers) — the receive tables the encoded
// engine decodes from message headers, kept per source, their joint table
// (the received messages one after another, so that any run of them is one
// launch) and the buffer they are received into.

#include <distarray/core/error.hpp>
#include <distarray/redist/detail/exec/step_buffers.hpp>

#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

template <class T, class Space>
class DecodeStepBuffers final : public DecodeBuffers {
 public:
  explicit DecodeStepBuffers(const StepCore<T, Space>& core) : core_(core) {}

  index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) override {
    Decoded& d = decoded_[source];
    if (d.header != header) {
      d.header = header;
      d.table = decode(source, header);
      changed_ = true;
    }
    return d.table.total;
  }
  char* gather(std::span<const int> sources) override {
    if (changed_) {  // (the engine's sources never change: only a header can)
      CopyTable joint;
      for (const int s : sources) {
        const CopyTable& t = decoded_.at(s).table;
        if (t.messages.size() != 1)  // (the engine waits for messages by source)
          throw Error("encoded exchange: the header from rank " + std::to_string(s) + " decodes to " +
                      std::to_string(t.messages.size()) + " messages, not one");
        joint.append(t);
      }
      joint_ = Packer<T, Space>(joint);
      received_.grow("distarray::encoded_receive", joint.total, core_.staged);
      changed_ = false;
    }
    return received_.bytes();
  }
  bool changed() const override { return changed_; }
  void unpack_gathered(std::size_t first, std::size_t last, void* out) override {
    if (first >= last) return;
    const CopyTable::Message &a = joint_.messages()[first], &b = joint_.messages()[last - 1];
    core_.stage_part(received_, {a.offset, b.offset + b.count}, false);
    core_.counters.unpack_launches += core_.with_op([&](auto op) {
      return joint_.copy(first, last, static_cast<T*>(out), received_.device.data(), false, op, core_.exec);
    });
    core_.exec.fence();
  }

 private:
  struct Decoded {
    std::vector<index_t> header;
    CopyTable table;
  };

  const StepCore<T, Space>& core_;
  std::map<int, Decoded> decoded_;  // per source
  bool changed_ = true;             // no joint table yet, or a header changed since it was built
  Packer<T, Space> joint_;
  StagedBuffer<T, Space> received_;
};

template <class T, class Space>
std::unique_ptr<DecodeBuffers> make_decode_buffers(const StepCore<T, Space>& core) {
  return std::make_unique<DecodeStepBuffers<T, Space>>(core);
}

}  // namespace distarray::detail
