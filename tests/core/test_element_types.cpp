// The element type table: every short name dispatches to its own type, the
// names are distinct and listed in errors, and complex<float> has only
// numpy's name (c64 meant complex<double> in old checkpoints).

#include <distarray/core/element_types.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <typeinfo>

namespace distarray {
namespace {

TEST(ElementTypes, EachNameDispatchesToItsType) {
  int count = 0;
  std::set<std::string> names, numpy;
  for_each_named_element_type([&]<class T>() {
    ++count;
    names.insert(ElementType<T>::name);
    numpy.insert(ElementType<T>::numpy);
    const std::type_info& found =
        with_element_type(ElementType<T>::name, []<class S>() -> const std::type_info& { return typeid(S); });
    EXPECT_EQ(found, typeid(T)) << ElementType<T>::name;
  });
  EXPECT_EQ(count, 5);
  EXPECT_EQ(names, (std::set<std::string>{"f32", "f64", "c128", "i32", "i64"}));
  EXPECT_EQ(numpy, (std::set<std::string>{"float32", "float64", "complex128", "int32", "int64"}));
  EXPECT_EQ(element_type_names(), "f32, f64, c128, i32, i64");
  EXPECT_EQ(element_type_names(NameColumn::numpy), "float32, float64, complex128, int32, int64");
}

TEST(ElementTypes, UnknownNamesAreRefusedWithTheList) {
  for (const char* name : {"c64", "f16", "", "F64", "double"}) {
    try {
      with_element_type(name, []<class T>() { return sizeof(T); });
      ADD_FAILURE() << "'" << name << "' was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + std::string(name) + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(element_type_names()), std::string::npos) << e.what();
    }
  }
}

TEST(ElementTypes, ComplexFloatHasOnlyNumpysName) {
  EXPECT_EQ(ElementType<std::complex<float>>::name, nullptr);
  EXPECT_STREQ(ElementType<std::complex<float>>::numpy, "complex64");
  EXPECT_EQ(ElementType<short>::name, nullptr);
  EXPECT_EQ(ElementType<short>::numpy, nullptr);
}

}  // namespace
}  // namespace distarray
