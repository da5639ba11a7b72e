// Closed forms of the unpacking parameters, derived from the owner functions
// and checked against the oracle for every (i, j) in tests/redist:
//  kr->r: destination j's local blocks c in [0, k) of one LCC hold global
//    r-blocks c*M + j, which lie in kr-block floor((c*M + j)/k) <= M - 1, so
//    the ones from source i are exactly c in [ceil((i*k - j)/M), ceil(((i+1)*k - j)/M))
//    clipped to [0, k): alpha = r * c_first, gamma = r * (number of c).
//  r->kr: sub-block t of j's kr-block is global r-block j*k + t, owned by
//    (j*k + t) mod M; source i's are t = t0, t0 + M, ... < k with
//    t0 = (i - j*k) mod M: beta = r * t0 (Eq. 7), gamma = r * ceil((k - t0)/M) (Eq. 6).

#include <distarray/core/error.hpp>
#include <distarray/redist/message_encoding.hpp>

#include "detail/arith.hpp"
#include "detail/generators.hpp"

#include <algorithm>

namespace distarray {

namespace {

void require_hsu_chung(const Dist1D& src, const Dist1D& dst) {
  if (src.extent() != dst.extent())
    throw ShapeMismatch("message encoding between extents " + std::to_string(src.extent()) + " and " +
                        std::to_string(dst.extent()));
  if (const auto why = detail::hsu_chung_inapplicable(src, dst))
    throw ScheduleError("message encoding: " + *why);
}

bool is_kr_to_r(const Dist1D& src, const Dist1D& dst) { return src.block_size() >= dst.block_size(); }

}  // namespace

std::optional<UnpackParams> encode_unpack_params(const Dist1D& src, const Dist1D& dst, int i, int j) {
  require_hsu_chung(src, dst);
  const index_t m = src.procs();
  UnpackParams p;
  if (is_kr_to_r(src, dst)) {
    const index_t r = dst.block_size(), k = src.block_size() / r;
    const index_t lo = std::max<index_t>(0, detail::ceil_div(i * k - j, m));
    const index_t hi = std::min<index_t>(k, detail::ceil_div((i + 1) * k - j, m));
    p = {lo * r, std::max<index_t>(0, hi - lo) * r};
  } else {
    const index_t r = src.block_size(), k = dst.block_size() / r;
    const index_t t0 = detail::pos_mod(i - index_t(j) * k, m);
    p = {t0 * r, t0 < k ? detail::ceil_div(k - t0, m) * r : 0};
  }
  // The parameters describe whole LCCs; a short array may still leave j nothing from i.
  if (p.count == 0) return std::nullopt;
  const PeerRuns runs = decode_unpack_params(p, src, dst, i, j);
  return runs.size() > 0 ? std::optional<UnpackParams>(p) : std::nullopt;
}

PeerRuns decode_unpack_params(const UnpackParams& params, const Dist1D& src, const Dist1D& dst, int i,
                              int j) {
  require_hsu_chung(src, dst);
  const detail::Window w = detail::periodic_window(dst, j, src);
  const index_t lcc = std::max(src.block_size(), dst.block_size());  // kr local elements
  const index_t r = std::min(src.block_size(), dst.block_size());
  detail::PartitionBuilder builder;
  for (index_t base = 0; base < w.end; base += lcc) {
    if (is_kr_to_r(src, dst))
      builder.add(i, base + params.first, params.count);
    else
      builder.add_strided(i, base + params.first, r, src.procs() * r, params.count / r);
  }
  std::vector<PeerRuns> runs = builder.finish(w, dst.local_extent(j));
  return runs.empty() ? PeerRuns{i, {}} : runs.front();
}

}  // namespace distarray
