#pragma once
// The dimensions the compiled planning half is instantiated for: each .cpp
// file that defines a template over D ends with DISTARRAY_FOR_EACH_DIMENSION(X),
// where X(D) instantiates its templates for one D.  Plan static_asserts the same range.

#define DISTARRAY_FOR_EACH_DIMENSION(X) X(1) X(2) X(3) X(4)
