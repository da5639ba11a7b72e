#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/decode_step_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// DecodeStepBuffers: the decode extension of a step's typed buffers
// (exchange_buffers.hpp's DecodeBuffers) — the receive tables the encoded
// engine decodes from message headers, kept per source, and the scratch
// buffer each message is received into.

#include <distarray/redist/detail/step_core.hpp>

#include <map>
#include <utility>
#include <vector>

namespace distarray::detail {

template <class T, class Space>
class DecodeStepBuffers final : public DecodeBuffers {
 public:
  explicit DecodeStepBuffers(const StepCore<T, Space>& core) : core_(core) {}

  char* scratch_bytes(index_t elements) override {
    scratch_.grow("distarray::encoded_scratch", elements, core_.staged);
    return scratch_.bytes();
  }
  index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) override {
    auto& [kept_header, table] = tables_[source];
    if (kept_header != header) {
      kept_header = header;
      table = Packer<T, Space>(decode(source, header));
    }
    return table.total();
  }
  void unpack_decoded(int source, void* out, index_t send_offset) override {
    const Packer<T, Space>& table = tables_.at(source).second;
    T* from = send_offset >= 0 ? core_.send_buf.device.data() + send_offset : scratch_.device.data();
    if (send_offset < 0) core_.stage_part(scratch_, {0, table.total()}, false);
    core_.counters.unpack_launches += core_.with_op(
        [&](auto op) { return table.copy_all(static_cast<T*>(out), {from}, false, op, core_.exec); });
    core_.exec.fence();
  }

 private:
  const StepCore<T, Space>& core_;
  StagedBuffer<T, Space> scratch_;
  std::map<int, std::pair<std::vector<index_t>, Packer<T, Space>>> tables_;  // per source: header, table
};

}  // namespace distarray::detail
