# Installation: headers, both libraries, a CMake package (find_package(ampvk) gives
# ampvk::ampvk and ampvk::ampvk_static) and a pkg-config file (ampvk.pc; the static
# link line is under Libs.private: pkg-config --static).
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ampvk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY vecmath/ampvk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ampvk ampvk_static EXPORT ampvkTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ampvkTargets NAMESPACE ampvk:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ampvk)

file(WRITE ${CMAKE_BINARY_DIR}/ampvkConfig.cmake.in [=[
@PACKAGE_INIT@
include(CMakeFindDependencyMacro)
find_dependency(Vulkan)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/ampvkTargets.cmake")
check_required_components(ampvk)
]=])
configure_package_config_file(${CMAKE_BINARY_DIR}/ampvkConfig.cmake.in ${CMAKE_BINARY_DIR}/ampvkConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ampvk)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ampvkConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ampvkConfig.cmake ${CMAKE_BINARY_DIR}/ampvkConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ampvk)

# The .pc file finds its prefix from where it lies (${pcfiledir}), so it stays right
# for `cmake --install --prefix DIR` and for a moved install tree. The public
# headers need no vulkan.h and libampvk.so carries its own dependency on the
# Vulkan loader, so vulkan is only Requires.private (for --cflags and --static).
set(AMPVK_PC_PRIVATE "")
foreach(p ${AMPVK_SHADERC_PATHS})
  string(APPEND AMPVK_PC_PRIVATE " ${p}")
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(AMPVK_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH AMPVK_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" AMPVK_PC_UP "${AMPVK_PC_UP}")
  set(AMPVK_PC_PREFIX "\${pcfiledir}/${AMPVK_PC_UP}")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/ampvk.pc
"prefix=${AMPVK_PC_PREFIX}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}

Name: ampvk
Description: C++ AMP for C11 on Vulkan
Version: ${PROJECT_VERSION}
Requires.private: vulkan
Libs: -L\${libdir} -lampvk
Libs.private:${AMPVK_PC_PRIVATE} -lspng -ldeflate -lturbojpeg -lwebp -ltiff -lOpenEXRCore-3_1 -lstdc++ -lm -lpthread
Cflags: -I\${includedir}
")
install(FILES ${CMAKE_BINARY_DIR}/ampvk.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
