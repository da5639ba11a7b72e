# Runs COMMAND; passes when its exit status is EXPECT_STATUS (0, or 1 for
# "non-zero") and its stdout+stderr match EXPECT_REGEX.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(EXPECT_STATUS EQUAL 0 AND NOT status EQUAL 0)
  message(FATAL_ERROR "expected success, got exit status ${status}")
elseif(NOT EXPECT_STATUS EQUAL 0 AND status EQUAL 0)
  message(FATAL_ERROR "expected a failure exit status, got 0")
endif()
if(NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()
