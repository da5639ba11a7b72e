#pragma once
// The core layer of distarray: distributions, grids, layouts and arrays.
#include <distarray/core/checked.hpp>
#include <distarray/core/dist1d.hpp>
#include <distarray/core/dist_array.hpp>
#include <distarray/core/element_types.hpp>
#include <distarray/core/environment.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/grid_shape.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/core/layout_text.hpp>
#include <distarray/core/proc_grid.hpp>
#include <distarray/core/row_major.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/core/tensor_basis.hpp>
#include <distarray/core/types.hpp>
