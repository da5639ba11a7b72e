#pragma once
// PlanBase: a Plan of any element type, rank and pair of storage orders, as
// Python sees it; TypedPlan holds the C++ plan.  Executions release the GIL.

#include "arrays.hpp"

#include <distarray/redist.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace distarray::python {

/// A started execution; the arrays it reads and writes stay alive until it
/// has completed (a request dropped before wait() completes it first).
class PendingExecution {
 public:
  PendingExecution(Request request, std::vector<py::object> arrays)
      : arrays_(std::move(arrays)), request_(std::move(request)) {}
  PendingExecution(const PendingExecution&) = delete;
  ~PendingExecution() {
    py::gil_scoped_release release;
    request_.reset();  // completes the execution, before the arrays are let go
  }
  // Fenced once complete: Python's other libraries read the arrays on
  // streams of their own, and a device execution ends with its last kernels
  // queued on the plan's (stream-ordered, docs/guide.md).
  bool test() {
    py::gil_scoped_release release;
    const bool done = request_->test();
    if (done) Kokkos::fence();
    return done;
  }
  void wait() {
    py::gil_scoped_release release;
    request_->wait();
    Kokkos::fence();
  }

 private:
  std::vector<py::object> arrays_;  // declared first: released after the request
  std::optional<Request> request_;
};

class PlanBase {
 public:
  virtual ~PlanBase() = default;
  virtual void execute(const std::vector<ArrayBase*>& in, const std::vector<ArrayBase*>& out) = 0;
  virtual Request start(const std::vector<ArrayBase*>& in, const std::vector<ArrayBase*>& out) = 0;
  virtual const PlanReport& report() const = 0;
  virtual std::string explain() const = 0;
};

template <class T, int D, class SourceOrder, class DestOrder>
class TypedPlan final : public PlanBase {
  using Source = DistArray<T, D, ArraySpace, SourceOrder>;
  using Dest = DistArray<T, D, ArraySpace, DestOrder>;

 public:
  TypedPlan(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options)
      : plan_(from, to, comm, options) {}

  void execute(const std::vector<ArrayBase*>& in, const std::vector<ArrayBase*>& out) override {
    auto [a, b] = arrays(in, out);
    py::gil_scoped_release release;
    plan_.execute(std::span<const Source>(a), std::span<Dest>(b));
  }
  Request start(const std::vector<ArrayBase*>& in, const std::vector<ArrayBase*>& out) override {
    auto [a, b] = arrays(in, out);
    py::gil_scoped_release release;
    return plan_.start(std::span<const Source>(a), std::span<Dest>(b));
  }
  const PlanReport& report() const override { return plan_.report(); }
  std::string explain() const override { return plan_.explain(); }

 private:
  /// Copies of the C++ arrays (views of the same memory) of each side.
  static std::pair<std::vector<Source>, std::vector<Dest>> arrays(const std::vector<ArrayBase*>& in,
                                                                  const std::vector<ArrayBase*>& out) {
    std::pair<std::vector<Source>, std::vector<Dest>> p;
    for (ArrayBase* a : in) p.first.push_back(typed<T, D, SourceOrder>(*a, "a source array").array());
    for (ArrayBase* b : out) p.second.push_back(typed<T, D, DestOrder>(*b, "a destination array").array());
    return p;
  }

  Plan<T, D, ArraySpace, SourceOrder, DestOrder> plan_;
};

/// A plan for element type T between layouts of the same rank (checked by
/// the caller); defined in plan_factory.hpp, instantiated in plans_<type>.cpp.
template <class T>
std::unique_ptr<PlanBase> make_plan_for(const AnyLayout& from, const AnyLayout& to, MPI_Comm comm,
                                        const std::string& source_order, const std::string& dest_order,
                                        const PlanOptions& options);

}  // namespace distarray::python
