#include <distarray/redist/plan_options.hpp>

#include "detail/enum_names.hpp"
#include "exact_text.hpp"  // core/src

namespace distarray {

namespace {

constexpr detail::NameTable<RedistMethod, 4> method_names = {{{RedistMethod::automatic, "auto"},
                                                              {RedistMethod::direct, "direct"},
                                                              {RedistMethod::indirect, "indirect"},
                                                              {RedistMethod::multiphase, "multiphase"}}};
constexpr detail::NameTable<ExchangeEngine, 6> engine_names = {{{ExchangeEngine::automatic, "auto"},
                                                                {ExchangeEngine::alltoallv, "alltoallv"},
                                                                {ExchangeEngine::p2p, "p2p"},
                                                                {ExchangeEngine::encoded, "encoded"},
                                                                {ExchangeEngine::datatype, "datatype"},
                                                                {ExchangeEngine::shared, "shared"}}};

constexpr detail::NameTable<BufferStaging, 3> staging_names = {
    {{BufferStaging::automatic, "auto"}, {BufferStaging::host, "host"}, {BufferStaging::none, "none"}}};

}  // namespace

std::string_view to_string(RedistMethod m) { return detail::name_of(method_names, m); }
std::string_view to_string(ExchangeEngine e) { return detail::name_of(engine_names, e); }
RedistMethod parse_redist_method(std::string_view t) { return detail::value_of(method_names, t, "method"); }
std::string_view to_string(BufferStaging s) { return detail::name_of(staging_names, s); }
BufferStaging parse_buffer_staging(std::string_view t) {
  return detail::value_of(staging_names, t, "staging");
}
std::string to_string(const PlanOptions& o) {
  const auto seconds = [](const std::optional<double>& s) { return s ? detail::exact_text(*s) : "model"; };
  return "method=" + std::string(to_string(o.method)) + " schedule=" + std::string(to_string(o.schedule)) +
         " exchange=" + std::string(to_string(o.exchange)) + " staging=" + std::string(to_string(o.staging)) +
         " max_message_bytes=" + std::to_string(o.max_message_bytes) + " ts=" + seconds(o.ts) +
         " te=" + seconds(o.te) + " candidate='" + o.candidate +
         "' renumbering=" + (o.allow_renumbering ? "yes" : "no");
}

ExchangeEngine parse_exchange_engine(std::string_view t) {
  return detail::value_of(engine_names, t, "exchange engine");
}

}  // namespace distarray
