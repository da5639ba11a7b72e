#pragma once
// Message encoding (Hsu and Chung, ICPP'97): for kr->r and r->kr
// redistributions on M processes the sender puts two numbers at the head of
// each message, and the receiver unpacks from them alone, without computing
// its receive set.  Per LCC of kr destination local elements:
//   kr->r: the message's elements land at [alpha, alpha + gamma);
//   r->kr: they land in gamma/r pieces of r starting at beta, every M*r.

#include <distarray/core/dist1d.hpp>
#include <distarray/redist/runs.hpp>

#include <optional>

namespace distarray {

/// (alpha, gamma) for kr->r, (beta, gamma) for r->kr, in elements.
struct UnpackParams {
  index_t first = 0;
  index_t count = 0;
  friend bool operator==(const UnpackParams&, const UnpackParams&) = default;
};

/// What source process i puts at the head of its message to destination
/// process j; nothing when they exchange no element.  ScheduleError when the
/// pair is not kr->r or r->kr on equal process counts.
std::optional<UnpackParams> encode_unpack_params(const Dist1D& src, const Dist1D& dst, int i, int j);

/// The destination-local runs where j unpacks the message from i.
PeerRuns decode_unpack_params(const UnpackParams& params, const Dist1D& src, const Dist1D& dst, int i, int j);

}  // namespace distarray
