# Installation and the Debian package: what `cmake --install build --prefix P`
# and `cpack -G DEB` (run in the build directory) put on a machine.
#   P/bin/ninja
#   P/share/man/man1/ninja.1                        (made from doc/ninja.1.in)
#   P/share/bash-completion/completions/ninja       (misc/completion/ninja.bash)
#   P/share/zsh/site-functions/_ninja               (misc/completion/_ninja)
#   P/share/doc/ronin/copyright                     (LICENSE)
#   P/share/doc/ronin/manual.md, README.md          (the user guide; and the
#   P/share/doc/ronin/report-example.png             picture it shows)
include(GNUInstallDirs)

# The man page's RONIN OPTIONS section is read from the built binary's -h,
# so it lists exactly the options that binary has, each with its entry from
# doc/ronin-options.roff.
set(RONIN_MAN_PAGE ${CMAKE_CURRENT_BINARY_DIR}/ninja.1)
add_custom_command(
  OUTPUT ${RONIN_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -DNINJA=$<TARGET_FILE:ninja>
          -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/doc/ninja.1.in -DOUTPUT=${RONIN_MAN_PAGE}
          -DOPTIONS_DOC=${CMAKE_CURRENT_SOURCE_DIR}/doc/ronin-options.roff
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.cmake
  DEPENDS ninja ${CMAKE_CURRENT_SOURCE_DIR}/doc/ninja.1.in ${CMAKE_CURRENT_SOURCE_DIR}/doc/ronin-options.roff
          ${CMAKE_CURRENT_SOURCE_DIR}/cmake/man-page.cmake
  COMMENT "man page ninja.1")
add_custom_target(man_page ALL DEPENDS ${RONIN_MAN_PAGE})

install(TARGETS ninja RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${RONIN_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES misc/completion/ninja.bash RENAME ninja
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions)
install(FILES misc/completion/_ninja DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/zsh/site-functions)
install(FILES LICENSE RENAME copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES doc/manual.md doc/report-example.png README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Ninja release ronin behaves as (src/base/version.h): the package stands in
# for Debian's ninja-build at that version, so `Depends: ninja-build (>= 1.10)`
# is met by it.
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/src/base/version.h ninja_version_line
     REGEX "kNinjaVersion\\[\\] = \"[0-9.]+\"")
string(REGEX MATCH "[0-9]+(\\.[0-9]+)+" RONIN_NINJA_VERSION "${ninja_version_line}")

set(CPACK_PACKAGE_NAME ronin)
set(CPACK_PACKAGE_VENDOR ronin)
# Whoever builds a package for others names themselves: -DRONIN_DEB_MAINTAINER=...
set(RONIN_DEB_MAINTAINER "ronin maintainers <maintainers@users.noreply.a-seed-3c1cf33b.example>"
    CACHE STRING "The Debian package's Maintainer field: \"Name <address>\"")
set(CPACK_PACKAGE_CONTACT "${RONIN_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RONIN_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "fast build system, a drop-in replacement for Ninja ${RONIN_NINJA_VERSION}")
# The extended description only (CPack puts the summary first itself); a
# line with a single '.' is a blank line in a Debian description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "ronin is a build system written from scratch in C++ whose binary, ninja,
behaves as Ninja ${RONIN_NINJA_VERSION} does: the same manifest language, options, subtools,
messages, exit statuses and .ninja_log and .ninja_deps files. CMake, Meson,
GN and hand-written build.ninja files work unchanged, and a build directory
can move between ronin and Ninja without rebuilding.
.
Everything it does beyond Ninja is off until asked for with a long option,
also read from the RONIN_FLAGS environment variable: skipping commands whose
inputs were only touched (--content-hash), a build cache in a directory or
on an HTTP server (--cache), job admission by available memory
(--keep-free-memory), a live view of the running jobs (--progress=live),
slots of their own for distcc, icecc and sccache (--remote-jobs), a GNU make
jobserver for the commands (--jobserver-pool), and reports of where a
build's time went (ninja -t trace, ninja -t report).
.
This package installs /usr/bin/ninja with its man page, bash and zsh
completions and the user guide, and takes the place of ninja-build.")
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
