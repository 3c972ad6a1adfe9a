# Writes the man page: doc/ninja.1.in with its RONIN OPTIONS section made
# from the block of ronin's own options that the built `ninja -h` prints, so
# an option added to src/driver/ronin_options.cc appears in the page by itself.
#   cmake -DNINJA=build/ninja -DINPUT=doc/ninja.1.in -DOUTPUT=ninja.1
#         -DVERSION=x.y.z -P cmake/man-page.cmake

# Roff text: a backslash is written \e, a minus sign \- (a plain '-' may be
# typeset as a hyphen); a line may not start with a control character ('.'
# or an apostrophe).
function(roff_text text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# One usage line, "  --name[=VALUE]   help", as a tagged paragraph.
function(option_entry line out_var)
  if(NOT line MATCHES "^  --([a-z0-9-]+)(\\[?=[^ ]+)? +(.*)$")
    message(FATAL_ERROR "man-page: cannot read the option line '${line}'")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(value "${CMAKE_MATCH_2}")
  roff_text("${CMAKE_MATCH_3}" help)
  string(REPLACE "-" "\\-" name "${name}")
  set(tag "\\fB\\-\\-${name}\\fR")
  if(value MATCHES "^(\\[?)=([^]]+)(\\]?)$")
    set(tag "${tag}${CMAKE_MATCH_1}=\\fI${CMAKE_MATCH_2}\\fR${CMAKE_MATCH_3}")
  endif()
  set(${out_var} ".TP\n${tag}\n${help}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${NINJA}" -h OUTPUT_VARIABLE out ERROR_VARIABLE usage)
string(FIND "${usage}" "\nronin options" start)
if(start EQUAL -1)
  message(FATAL_ERROR "man-page: '${NINJA} -h' printed no block of ronin options")
endif()
string(SUBSTRING "${usage}" ${start} -1 block)
# Lines become a CMake list: a ';' of the text is kept aside meanwhile, as
# an ASCII unit separator.
string(ASCII 31 SEMICOLON)
string(REPLACE ";" "${SEMICOLON}" block "${block}")
string(REPLACE "\n" ";" lines "${block}")
set(entries "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  --")
    option_entry("${line}" entry)
    list(APPEND entries "${entry}")
  endif()
endforeach()
list(JOIN entries "\n" RONIN_OPTIONS)
string(REPLACE "${SEMICOLON}" ";" RONIN_OPTIONS "${RONIN_OPTIONS}")
set(RONIN_VERSION "${VERSION}")
configure_file("${INPUT}" "${OUTPUT}" @ONLY)
