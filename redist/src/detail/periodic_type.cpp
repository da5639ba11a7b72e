#include "periodic_type.hpp"

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <climits>

namespace distarray::detail {

namespace {

/// Longest group that step 2 looks for: the segments of one period of a
/// RunPattern, or the stretches of one row of rows.
constexpr std::size_t max_period = 16;

/// `count` blocks of `type`, `spacing` bytes apart, from `displacement`.
struct Stretch {
  MPI_Aint displacement;
  MPI_Aint spacing;
  int count;
  MPI_Datatype type;

  bool same_shape(const Stretch& o) const {
    return count == o.count && type == o.type && (count == 1 || spacing == o.spacing);
  }
};

/// Step 1: consecutive blocks of one type at a constant spacing.
std::vector<Stretch> stretches(const std::vector<TypedBlock>& blocks) {
  std::vector<Stretch> out;
  for (const TypedBlock& b : blocks) {
    if (!out.empty()) {
      Stretch& s = out.back();
      const MPI_Aint step = b.displacement - (s.displacement + (s.count - 1) * s.spacing);
      if (s.type == b.type && s.count < INT_MAX && (s.count == 1 || step == s.spacing)) {
        if (s.count == 1) s.spacing = step;
        ++s.count;
        continue;
      }
    }
    out.push_back({b.displacement, 0, 1, b.type});
  }
  return out;
}

/// Repetitions of the k stretches from s[i] at a constant shift (1 when none).
std::size_t repeats(const std::vector<Stretch>& s, std::size_t i, std::size_t k) {
  if (i + 2 * k > s.size()) return 1;
  const MPI_Aint shift = s[i + k].displacement - s[i].displacement;
  std::size_t j = i + k;
  while (j < s.size() && s[j].same_shape(s[j - k]) && s[j].displacement - s[j - k].displacement == shift) ++j;
  return std::min<std::size_t>((j - i) / k, INT_MAX);
}

/// Steps 1 and 2 once.
std::vector<TypedBlock> fold(const std::vector<TypedBlock>& blocks, TypeCache& cache) {
  const std::vector<Stretch> s = stretches(blocks);
  const auto type_of = [&cache](const Stretch& x) { return cache.hvector(x.count, x.spacing, x.type); };
  std::vector<TypedBlock> out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t best_k = 1, best_r = 1;  // the period covering the most stretches
    for (std::size_t k = 1; k <= max_period && i + 2 * k <= s.size(); ++k)
      if (const std::size_t r = repeats(s, i, k); r >= 2 && r * k > best_r * best_k) best_k = k, best_r = r;
    if (best_r < 2) {
      out.push_back({s[i].displacement, type_of(s[i])});
      ++i;
      continue;
    }
    std::vector<std::pair<MPI_Aint, MPI_Datatype>> members;
    for (std::size_t m = 0; m < best_k; ++m)
      members.emplace_back(s[i + m].displacement - s[i].displacement, type_of(s[i + m]));
    const MPI_Aint shift = s[i + best_k].displacement - s[i].displacement;
    out.push_back({s[i].displacement, cache.hvector(int(best_r), shift, cache.group(members))});
    i += best_r * best_k;
  }
  return out;
}

}  // namespace

TypeCache::~TypeCache() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [key, type] : vectors_) MPI_Type_free(&type);
  for (auto& [key, type] : groups_) MPI_Type_free(&type);
}

MPI_Datatype TypeCache::hvector(int count, MPI_Aint spacing, MPI_Datatype type) {
  if (count == 1) return type;
  auto [it, added] = vectors_.try_emplace({count, spacing, type}, MPI_DATATYPE_NULL);
  if (added) DISTARRAY_MPI_CHECK(MPI_Type_create_hvector(count, 1, spacing, type, &it->second));
  return it->second;
}

MPI_Datatype TypeCache::group(const std::vector<std::pair<MPI_Aint, MPI_Datatype>>& members) {
  if (members.size() == 1 && members[0].first == 0) return members[0].second;
  auto [it, added] = groups_.try_emplace(members, MPI_DATATYPE_NULL);
  if (added) {
    std::vector<int> ones(members.size(), 1);
    std::vector<MPI_Aint> displacements;
    std::vector<MPI_Datatype> types;
    for (const auto& [d, t] : members) displacements.push_back(d), types.push_back(t);
    DISTARRAY_MPI_CHECK(MPI_Type_create_struct(int(members.size()), ones.data(), displacements.data(),
                                               types.data(), &it->second));
  }
  return it->second;
}

MPI_Datatype TypeCache::sequence(std::vector<TypedBlock> blocks) {
  for (std::size_t before = 0; blocks.size() > 1 && blocks.size() != before;) {
    before = blocks.size();
    blocks = fold(blocks, *this);
  }
  std::vector<std::pair<MPI_Aint, MPI_Datatype>> members;
  for (const TypedBlock& b : blocks) members.emplace_back(b.displacement, b.type);
  if (members.size() > std::size_t(INT_MAX)) throw Error("datatype exchange: a message has too many runs");
  return group(members);
}

}  // namespace distarray::detail
