#pragma once
// The redistribution layer of distarray: schedules, plans, exchange.
#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/matrix_transform.hpp>
#include <distarray/redist/message_encoding.hpp>
#include <distarray/redist/plan.hpp>
#include <distarray/redist/plan_logic.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>
#include <distarray/redist/request.hpp>
#include <distarray/redist/runs.hpp>
#include <distarray/redist/schedule.hpp>
#include <distarray/redist/strategy.hpp>
#include <distarray/redist/wisdom.hpp>
