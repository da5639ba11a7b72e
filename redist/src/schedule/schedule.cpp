#include <distarray/core/error.hpp>
#include <distarray/redist/schedule.hpp>

#include "detail/enum_names.hpp"
#include "detail/generators.hpp"

namespace distarray {

namespace {

constexpr detail::NameTable<ScheduleMethod, 7> method_names = {{
    {ScheduleMethod::automatic, "auto"},
    {ScheduleMethod::brute, "brute"},
    {ScheduleMethod::classical, "classical"},
    {ScheduleMethod::falls, "falls"},
    {ScheduleMethod::aspen, "aspen"},
    {ScheduleMethod::hsu_chung, "hsu-chung"},
    {ScheduleMethod::thakur, "thakur"},
}};

detail::Generator generator_of(ScheduleMethod m) {
  switch (m) {
    case ScheduleMethod::brute:
      return detail::brute_force;
    case ScheduleMethod::classical:
      return detail::classical;
    case ScheduleMethod::falls:
      return detail::falls;
    case ScheduleMethod::aspen:
      return detail::aspen;
    case ScheduleMethod::hsu_chung:
      return detail::hsu_chung;
    case ScheduleMethod::thakur:
      return detail::thakur;
    case ScheduleMethod::automatic:
      break;
  }
  return nullptr;
}

void require_same_extent(const Dist1D& a, const Dist1D& b) {
  if (a.extent() != b.extent())
    throw ShapeMismatch("redistribution between extents " + std::to_string(a.extent()) + " and " +
                        std::to_string(b.extent()));
}

}  // namespace

std::string_view to_string(ScheduleMethod m) { return detail::name_of(method_names, m); }

ScheduleMethod parse_schedule_method(std::string_view text) {
  if (text == "krr") return ScheduleMethod::hsu_chung;  // the name before 0.2, still accepted
  return detail::value_of(method_names, text, "schedule method");
}

std::vector<ScheduleMethod> all_schedule_methods() {
  std::vector<ScheduleMethod> v;
  for (const auto& [method, name] : method_names)
    if (method != ScheduleMethod::automatic) v.push_back(method);
  return v;
}

std::optional<std::string> inapplicable(ScheduleMethod method, const Dist1D& src, const Dist1D& dst) {
  if (method == ScheduleMethod::hsu_chung) return detail::hsu_chung_inapplicable(src, dst);
  return std::nullopt;
}

ScheduleMethod choose_schedule_method(const Dist1D& src, const Dist1D& dst) {
  if (!detail::hsu_chung_inapplicable(src, dst)) return ScheduleMethod::hsu_chung;
  if (detail::thakur_special_case(src, dst)) return ScheduleMethod::thakur;
  return ScheduleMethod::aspen;
}

std::vector<PeerRuns> partition_runs(ScheduleMethod method, const Dist1D& local, int proc,
                                     const Dist1D& remote) {
  require_same_extent(local, remote);
  if (proc < 0 || proc >= local.procs())
    throw Error("process " + std::to_string(proc) + " is outside the " + std::to_string(local.procs()) +
                " processes of '" + local.to_string() + "'");
  if (method == ScheduleMethod::automatic) method = choose_schedule_method(local, remote);
  if (const auto why = inapplicable(method, local, remote)) throw ScheduleError(*why);
  const detail::Window window = method == ScheduleMethod::brute
                                    ? detail::whole_window(local, proc)
                                    : detail::periodic_window(local, proc, remote);
  detail::PartitionBuilder builder;
  generator_of(method)(local, proc, remote, window, builder);
  return builder.finish(window, local.local_extent(proc));
}

}  // namespace distarray
