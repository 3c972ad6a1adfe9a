# Installation and the Debian package: what `cmake --install build --prefix P`
# and `cpack -G DEB` (run in the build directory) put on a machine.
#   P/bin/ninja
#   P/share/man/man1/ninja.1                        (made from doc/ninja.1.in)
#   P/share/bash-completion/completions/ninja       (misc/completion/ninja.bash)
#   P/share/zsh/site-functions/_ninja               (misc/completion/_ninja)
#   P/share/doc/ronin/copyright                     (LICENSE)
include(GNUInstallDirs)

# The man page's RONIN OPTIONS section is read from the built binary's -h,
# so it lists exactly the options that binary has.
set(RONIN_MAN_PAGE ${CMAKE_CURRENT_BINARY_DIR}/ninja.1)
add_custom_command(
  OUTPUT ${RONIN_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -DNINJA=$<TARGET_FILE:ninja>
          -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/doc/ninja.1.in -DOUTPUT=${RONIN_MAN_PAGE}
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.cmake
  DEPENDS ninja ${CMAKE_CURRENT_SOURCE_DIR}/doc/ninja.1.in
          ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.cmake
  COMMENT "man page ninja.1")
add_custom_target(man_page ALL DEPENDS ${RONIN_MAN_PAGE})

install(TARGETS ninja RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${RONIN_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES misc/completion/ninja.bash RENAME ninja
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions)
install(FILES misc/completion/_ninja DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/zsh/site-functions)
install(FILES LICENSE RENAME copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Ninja release ronin behaves as (src/base/version.h): the package stands in
# for Debian's ninja-build at that version, so `Depends: ninja-build (>= 1.10)`
# is met by it.
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/src/base/version.h ninja_version_line
     REGEX "kNinjaVersion\\[\\] = \"[0-9.]+\"")
string(REGEX MATCH "[0-9]+(\\.[0-9]+)+" RONIN_NINJA_VERSION "${ninja_version_line}")

set(CPACK_PACKAGE_NAME ronin)
set(CPACK_PACKAGE_VENDOR ronin)
set(CPACK_PACKAGE_CONTACT "ronin developers <ronin@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "small build system with a focus on speed (drop-in Ninja)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "small build system with a focus on speed (drop-in Ninja)
ronin is a from-scratch replacement for the Ninja build tool: its binary,
ninja, reads the same manifests, takes the same options and writes the
same logs as Ninja ${RONIN_NINJA_VERSION}, so CMake, Meson and GN keep working.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # ronin_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_PROVIDES "ninja-build (= ${RONIN_NINJA_VERSION})")
set(CPACK_DEBIAN_PACKAGE_CONFLICTS ninja-build)
set(CPACK_DEBIAN_PACKAGE_REPLACES ninja-build)
# Depends: nothing for the static binary; otherwise what it links, as
# dpkg-shlibdeps (dpkg-dev) finds it.
if(NOT RONIN_STATIC_BINARY)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
