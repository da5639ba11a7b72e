#pragma once
// The redistribution layer of distarray: schedules, plans, exchange.
#include <distarray/redist/message_encoding.hpp>
#include <distarray/redist/runs.hpp>
#include <distarray/redist/schedule.hpp>
