#pragma once
// What a user writes by hand for a redistribution between two layouts, and
// the communication floor:
//   HandWritten::alltoallw  per-peer MPI derived datatypes — along every
//                           dimension (rows x columns in 2-D) indexed, or
//                           hvectors of the block-cyclic pattern (TypeStyle),
//                           built once — and one MPI_Alltoallw, straight
//                           between the local blocks;
//   HandWritten::floor      one bare MPI_Alltoallv of the same per-peer bytes
//                           from pre-packed buffers: what any method must at
//                           least move.
// Who owns what comes from the public Layout / Dist1D API only.
//
// MPI_Type_create_darray is not used: it describes a rank's whole local block
// inside the global array (a file view, a scatter), while every message here
// is the intersection of two distributions — an indexed product.

#include "elements.hpp"

#include <distarray/core.hpp>

#include <mpi.h>

#include <array>
#include <utility>
#include <vector>

namespace compare {

using distarray::Coord;
using distarray::Index;
using distarray::index_t;
using distarray::Layout;
using distarray::StorageOrder;

/// Per dimension, per coordinate of `other` along it: my local indices
/// (ascending) whose elements that coordinate owns in `other`.
template <int D>
std::array<std::vector<std::vector<index_t>>, D> owned_by(const Layout<D>& mine, const Coord<D>& me,
                                                          const Layout<D>& other) {
  std::array<std::vector<std::vector<index_t>>, D> lists;
  for (int d = 0; d < D; ++d) {
    const distarray::Dist1D& a = mine.dist(d);
    const distarray::Dist1D& b = other.dist(d);
    lists[d].resize(std::size_t(b.procs()));
    for (index_t l = 0; l < a.local_extent(me[d]); ++l)
      lists[d][std::size_t(b.owner(a.global_index(me[d], l)))].push_back(l);
  }
  return lists;
}

/// How the hand-written code describes the local indices one peer gets
/// along one dimension: `indexed` lists every run (MPI_Type_indexed);
/// `vector` gives each stretch of equal runs at a constant spacing one
/// MPI_Type_create_hvector (a block-cyclic pattern is one, a block one run)
/// and joins the stretches in a struct — what users write for block-cyclic
/// moves, and a description Open MPI walks as a loop, not a list.
enum class TypeStyle { indexed, vector };

/// Runs of consecutive indices of an ascending list: (start, length).
inline std::vector<std::pair<int, int>> runs_of(const std::vector<index_t>& list) {
  std::vector<std::pair<int, int>> runs;
  for (index_t i : list) {
    if (!runs.empty() && runs.back().first + runs.back().second == int(i))
      ++runs.back().second;
    else
      runs.emplace_back(int(i), 1);
  }
  return runs;
}

/// The type of `list` along one dimension whose index steps by `unit`
/// (a type `unit_bytes` wide).
inline MPI_Datatype along(const std::vector<index_t>& list, MPI_Datatype unit, MPI_Aint unit_bytes,
                          TypeStyle style) {
  const auto runs = runs_of(list);
  MPI_Datatype t;
  if (style == TypeStyle::indexed) {
    std::vector<int> starts, lengths;
    for (const auto& [start, length] : runs) {
      starts.push_back(start);
      lengths.push_back(length);
    }
    MPI_Type_indexed(int(runs.size()), lengths.data(), starts.data(), unit, &t);
    return t;
  }
  struct Stretch {
    int start, length, count, spacing;
  };
  std::vector<Stretch> stretches;
  for (const auto& [start, length] : runs) {
    Stretch* last = stretches.empty() ? nullptr : &stretches.back();
    if (last && last->length == length &&
        (last->count == 1 || start - (last->start + (last->count - 1) * last->spacing) == last->spacing)) {
      if (last->count == 1) last->spacing = start - last->start;
      ++last->count;
    } else {
      stretches.push_back({start, length, 1, 0});
    }
  }
  std::vector<MPI_Datatype> types(stretches.size());
  std::vector<MPI_Aint> places;
  for (std::size_t i = 0; i < stretches.size(); ++i) {
    const Stretch& x = stretches[i];
    MPI_Type_create_hvector(x.count, x.length, MPI_Aint(x.spacing) * unit_bytes, unit, &types[i]);
    places.push_back(MPI_Aint(x.start) * unit_bytes);
  }
  const std::vector<int> ones(stretches.size(), 1);
  MPI_Type_create_struct(int(stretches.size()), ones.data(), places.data(), types.data(), &t);
  for (MPI_Datatype& x : types) MPI_Type_free(&x);
  return t;
}

/// The elements lists[0] x ... x lists[D-1] of a local block of T with the
/// given strides (in elements), in row-major order of the product — the order
/// the two sides agree on.  An element stretched to the last stride, described
/// along the last dimension, stretched to the next stride, described, and so on.
template <class T, int D>
MPI_Datatype product_type(const std::array<const std::vector<index_t>*, D>& lists, const Index<D>& strides,
                          TypeStyle style) {
  constexpr auto bytes = MPI_Aint(sizeof(T));
  MPI_Datatype t;
  MPI_Type_create_resized(mpi_type<T>(), 0, MPI_Aint(strides[D - 1]) * bytes, &t);
  for (int d = D - 1; d >= 0; --d) {
    MPI_Datatype u = along(*lists[d], t, MPI_Aint(strides[d]) * bytes, style);
    MPI_Type_free(&t);
    if (d > 0) {
      MPI_Type_create_resized(u, 0, MPI_Aint(strides[d - 1]) * bytes, &t);
      MPI_Type_free(&u);
    } else {
      t = u;
    }
  }
  MPI_Type_commit(&t);
  return t;
}

template <class T, int D>
class HandWritten {
 public:
  /// Collective over comm; the arrays' local blocks are stored in the given
  /// orders, the messages described in `style`.
  HandWritten(const Layout<D>& from, StorageOrder from_order, const Layout<D>& to, StorageOrder to_order,
              MPI_Comm comm, TypeStyle style = TypeStyle::indexed)
      : comm_(comm) {
    int size = 1, me = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    const auto ranks = std::size_t(size);
    scount_.assign(ranks, 0);
    rcount_.assign(ranks, 0);
    stype_.assign(ranks, mpi_type<T>());  // placeholders where the count is 0
    rtype_.assign(ranks, mpi_type<T>());
    std::vector<int> sbytes(ranks, 0), rbytes(ranks, 0);
    const auto side = [&](const Layout<D>& mine, StorageOrder order, const Layout<D>& other,
                          std::vector<int>& count, std::vector<MPI_Datatype>& type, std::vector<int>& bytes) {
      const auto c = mine.grid().coord_of(me);
      if (!c) return;
      const auto lists = owned_by<D>(mine, *c, other);
      const Index<D> strides = distarray::storage_strides(mine.local_extents(*c), order);
      for (int r = 0; r < size; ++r) {
        const auto q = other.grid().coord_of(r);
        if (!q) continue;
        std::array<const std::vector<index_t>*, D> piece{};
        index_t elements = 1;
        for (int d = 0; d < D; ++d) {
          piece[d] = &lists[d][std::size_t((*q)[d])];
          elements *= index_t(piece[d]->size());
        }
        if (elements == 0) continue;
        count[std::size_t(r)] = 1;
        type[std::size_t(r)] = product_type<T, D>(piece, strides, style);
        bytes[std::size_t(r)] = int(elements * index_t(sizeof(T)));
      }
    };
    side(from, from_order, to, scount_, stype_, sbytes);
    side(to, to_order, from, rcount_, rtype_, rbytes);
    // The floor's packed buffers: the same bytes per peer, back to back.
    sdispl_.assign(ranks, 0);
    rdispl_.assign(ranks, 0);
    fsdispl_.assign(ranks, 0);
    frdispl_.assign(ranks, 0);
    for (std::size_t r = 1; r < ranks; ++r) {
      fsdispl_[r] = fsdispl_[r - 1] + sbytes[r - 1];
      frdispl_[r] = frdispl_[r - 1] + rbytes[r - 1];
    }
    fscount_ = sbytes;
    frcount_ = rbytes;
    fsend_.assign(std::size_t(fsdispl_.back() + sbytes.back()), 1);
    frecv_.assign(std::size_t(frdispl_.back() + rbytes.back()), 0);
  }
  HandWritten(const HandWritten&) = delete;
  HandWritten& operator=(const HandWritten&) = delete;
  ~HandWritten() {
    for (std::size_t r = 0; r < stype_.size(); ++r) {
      if (scount_[r]) MPI_Type_free(&stype_[r]);
      if (rcount_[r]) MPI_Type_free(&rtype_[r]);
    }
  }

  void alltoallw(const T* in, T* out) const {
    MPI_Alltoallw(in, scount_.data(), sdispl_.data(), stype_.data(), out, rcount_.data(), rdispl_.data(),
                  rtype_.data(), comm_);
  }

  void floor() {
    MPI_Alltoallv(fsend_.data(), fscount_.data(), fsdispl_.data(), MPI_BYTE, frecv_.data(), frcount_.data(),
                  frdispl_.data(), MPI_BYTE, comm_);
  }

 private:
  MPI_Comm comm_;
  std::vector<int> scount_, rcount_, sdispl_, rdispl_;  // Alltoallw: one datatype per peer
  std::vector<MPI_Datatype> stype_, rtype_;
  std::vector<int> fscount_, frcount_, fsdispl_, frdispl_;  // the floor, in bytes
  std::vector<char> fsend_, frecv_;
};

}  // namespace compare
