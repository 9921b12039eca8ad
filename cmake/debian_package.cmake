# The Debian package that scripts/package builds with CPack: its version, maintainer and date
# come from packaging/changelog's first entry (whose upstream version must be the project's),
# its dependencies from what the binary links (dpkg-shlibdeps) plus what it loads at run time.

file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/changelog changelog)
list(GET changelog 0 entry)
if(NOT entry MATCHES "^dcwalk \\(([^)-]+)-([^)]+)\\) ")
  message(FATAL_ERROR "packaging/changelog: the first line is not 'dcwalk (VERSION-REVISION) ...'")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "packaging/changelog: the newest entry is ${CMAKE_MATCH_1}, the project is "
                      "${PROJECT_VERSION} (CMakeLists.txt): add an entry for ${PROJECT_VERSION}")
endif()
set(DCWALK_DEB_REVISION ${CMAKE_MATCH_2})
foreach(line IN LISTS changelog)
  if(line MATCHES "^ -- (.+ <[^>]+>)  [A-Z][a-z][a-z], ([0-9][0-9]) ([A-Z][a-z][a-z]) ([0-9]+) ")
    set(DCWALK_DEB_MAINTAINER "${CMAKE_MATCH_1}")
    set(months Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
    list(FIND months ${CMAKE_MATCH_3} month)
    math(EXPR month "${month} + 1" OUTPUT_FORMAT DECIMAL)
    if(month LESS 10)
      set(month 0${month})
    endif()
    set(DCWALK_RELEASE_DATE "${CMAKE_MATCH_4}-${month}-${CMAKE_MATCH_2}")  # the man page's date
    break()
  endif()
endforeach()
if(NOT DEFINED DCWALK_DEB_MAINTAINER)
  message(FATAL_ERROR "packaging/changelog: the first entry has no ' -- NAME <EMAIL>  DATE' line")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dcwalk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${DCWALK_DEB_REVISION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # dcwalk_VERSION-REVISION_ARCH.deb
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})  # scripts/package: /usr
set(CPACK_PACKAGE_CONTACT "${DCWALK_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DCWALK_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "fly through an AI datacenter at true scale")
set(CPACK_PACKAGE_DESCRIPTION
    "dcwalk flies from a tensor core inside an SM, through the HBM stack, the GPU
package, a compute tray and a GB200 NVL72 rack, along the fat-tree spine and
the data hall, out to the cooling plant and the campus, with one simulation
behind every number and a source behind every hardware figure.

It offers a guided ten-chapter tour with live simulator panels, a booth mode
for trade shows and training rooms (full screen, attract loop, idle reset),
headless shots and tours for documents, and the simulator on the command line
(dcwalk sim). It renders with Vulkan on a GPU, or on Mesa's software
rasterizer where there is none.")
# What the binary links, from dpkg-shlibdeps: the Vulkan loader (libvulkan1), GLFW, tinygltf,
# stb, the C and C++ libraries. Named here, what it loads at run time and no linker sees:
# Mesa's Vulkan drivers (lavapipe, the software renderer of PCs without a GPU) and the UI font.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "mesa-vulkan-drivers, fonts-inter")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ffmpeg")  # encodes clips (F9, tour --fps) when installed
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR})
include(CPack)
