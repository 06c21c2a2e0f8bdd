# The app version stored with every run: the project version plus the commit it was built from.
find_package(Git QUIET)
set(KWB_GIT_DESCRIBE "")
if(GIT_FOUND AND EXISTS "${PROJECT_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=10
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE KWB_GIT_DESCRIBE
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(KWB_GIT_DESCRIBE)
  set(KWB_VERSION_STRING "${PROJECT_VERSION}+${KWB_GIT_DESCRIBE}")
else()
  set(KWB_VERSION_STRING "${PROJECT_VERSION}")
endif()
