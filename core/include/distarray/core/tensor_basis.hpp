#pragma once
// The tensor-product form of a 1-D block-cyclic distribution (Kaushik et al.,
// ICS'94, Sec. 2 and Def. 2.3): cyclic(b) of N = C*P*b elements over P
// processes is the basis e_C (x) e_P (x) e_b, so a global index g has the
// mixed-radix digits (cycle, proc, offset) with g = (cycle*P + proc)*b + offset.
// block is e_P (x) e_{N/P} (one cycle) and cyclic is e_{N/P} (x) e_P (b = 1).
// A ragged N adds a tail of fewer than P*b elements after the full cycles.

#include <distarray/core/types.hpp>

#include <string>

namespace distarray {

struct TensorBasis {
  index_t cycles = 0;  ///< C: number of complete cycles of P*b elements
  int procs = 1;       ///< P: the process digit
  index_t block = 1;   ///< b: the offset digit
  index_t tail = 0;    ///< N - C*P*b, in [0, P*b)

  struct Digits {
    index_t cycle;
    int proc;
    index_t offset;
    friend bool operator==(const Digits&, const Digits&) = default;
  };

  constexpr index_t extent() const { return cycles * procs * block + tail; }

  constexpr Digits digits(index_t g) const {
    const index_t cycle_len = index_t(procs) * block;
    const index_t r = g % cycle_len;
    return {g / cycle_len, int(r / block), r % block};
  }

  constexpr index_t global(const Digits& d) const { return (d.cycle * procs + d.proc) * block + d.offset; }

  /// Kaushik's notation, e.g. "e_3 (x) e_4[proc] (x) e_2 + 5 tail".
  std::string to_string() const;

  friend bool operator==(const TensorBasis&, const TensorBasis&) = default;
};

}  // namespace distarray
