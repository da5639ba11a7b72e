// Plan and Request for Python: options from keyword strings, the report as
// a dict, batches as lists.

#include "plans.hpp"
#include "bindings.hpp"

#include <pybind11/stl.h>

namespace distarray::python {

namespace {

PlanOptions options_from(const py::dict& kwargs) {
  PlanOptions o;
  for (const auto& [key, value] : kwargs) {
    const std::string k = py::str(key);
    if (k == "method")
      o.method = parse_redist_method(value.cast<std::string>());
    else if (k == "schedule")
      o.schedule = parse_schedule_method(value.cast<std::string>());
    else if (k == "exchange")
      o.exchange = parse_exchange_engine(value.cast<std::string>());
    else if (k == "staging")
      o.staging = parse_buffer_staging(value.cast<std::string>());
    else if (k == "max_message_bytes")
      o.max_message_bytes = value.cast<std::size_t>();
    else if (k == "wisdom")
      o.wisdom = value.cast<std::string>();
    else if (k == "candidate")
      o.candidate = value.cast<std::string>();
    else
      throw UsageError("Plan: unknown option '" + k +
                       "' (method, schedule, exchange, staging, max_message_bytes, wisdom, candidate)");
  }
  return o;
}

py::dict report_dict(const PlanReport& r) {
  py::dict d;
  d["method"] = r.method;
  d["schedule"] = r.schedule;
  d["exchange"] = r.exchange;
  d["settled"] = r.settled;
  d["cost_model"] = r.cost_model;
  d["steps"] = r.steps;
  d["peers"] = r.peers;
  d["messages_sent"] = r.messages_sent;
  d["messages_received"] = r.messages_received;
  d["bytes_sent"] = r.bytes_sent;
  d["bytes_received"] = r.bytes_received;
  d["bytes_local"] = r.bytes_local;
  d["pack_launches"] = r.pack_launches;
  d["unpack_launches"] = r.unpack_launches;
  d["local_launches"] = r.local_launches;
  d["executions"] = r.executions;
  d["trial_executions"] = r.trial_executions;
  d["agreements_in_exchange"] = r.agreements_in_exchange;
  d["plan_seconds"] = r.plan_seconds;
  d["pack_seconds"] = r.pack_seconds;
  d["staging_seconds"] = r.staging_seconds;
  d["exchange_seconds"] = r.exchange_seconds;
  d["unpack_seconds"] = r.unpack_seconds;
  d["local_seconds"] = r.local_seconds;
  return d;
}

std::unique_ptr<PlanBase> make_plan(const AnyLayout& from, const AnyLayout& to, const std::string& dtype,
                                    std::uintptr_t comm, const std::string& source_order,
                                    const std::string& dest_order, const py::dict& kwargs) {
  if (from.ndim() != to.ndim())
    throw ShapeMismatch("Plan: the layouts have " + std::to_string(from.ndim()) + " and " +
                        std::to_string(to.ndim()) + " dimensions");
  const PlanOptions options = options_from(kwargs);
  return with_dtype(dtype_from_name(dtype), [&]<class T>(Tag<T>) {
    return make_plan_for<T>(from, to, comm_at(comm), source_order, dest_order, options);
  });
}

/// The C++ arrays of a list of Python arrays.
std::vector<ArrayBase*> pointers(const std::vector<std::shared_ptr<ArrayBase>>& arrays) {
  std::vector<ArrayBase*> p;
  for (const auto& a : arrays) p.push_back(a.get());
  return p;
}

}  // namespace

void bind_plans(py::module_& m) {
  py::class_<PendingExecution>(m, "Request")
      .def("test", &PendingExecution::test)
      .def("wait", &PendingExecution::wait);
  py::class_<PlanBase>(m, "Plan")
      .def(py::init(&make_plan), py::arg("source"), py::arg("destination"), py::arg("dtype"), py::arg("comm"),
           py::arg("source_order"), py::arg("destination_order"), py::arg("options"))
      .def(
          "execute",
          [](PlanBase& p, const std::vector<std::shared_ptr<ArrayBase>>& in,
             const std::vector<std::shared_ptr<ArrayBase>>& out) {
            p.execute(pointers(in), pointers(out));
            Kokkos::fence();  // (PendingExecution::wait says why)
          },
          py::arg("sources"), py::arg("destinations"))
      .def(
          "start",
          [](PlanBase& p, const py::list& in, const py::list& out) {
            std::vector<py::object> keep;
            for (const auto& a : in) keep.push_back(py::reinterpret_borrow<py::object>(a));
            for (const auto& b : out) keep.push_back(py::reinterpret_borrow<py::object>(b));
            Request r = p.start(pointers(in.cast<std::vector<std::shared_ptr<ArrayBase>>>()),
                                pointers(out.cast<std::vector<std::shared_ptr<ArrayBase>>>()));
            return std::make_unique<PendingExecution>(std::move(r), std::move(keep));
          },
          py::arg("sources"), py::arg("destinations"))
      .def_property_readonly("report", [](const PlanBase& p) { return report_dict(p.report()); })
      .def("explain", &PlanBase::explain);
}

}  // namespace distarray::python
