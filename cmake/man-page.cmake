cmake_policy(SET CMP0057 NEW)  # if(... IN_LIST ...)

# Writes the man page: doc/ninja.1.in with its RONIN OPTIONS section made
# from the block of ronin's own options that the built `ninja -h` prints, so
# an option added to src/driver/ronin_options.cc appears in the page by itself,
# each under its tag with its entry from OPTIONS_DOC (doc/ronin-options.roff:
# the text after a line '.\" --NAME'), else its line of help.
#   cmake -DNINJA=build/ninja -DINPUT=doc/ninja.1.in -DOUTPUT=ninja.1
#         -DVERSION=x.y.z [-DOPTIONS_DOC=doc/ronin-options.roff] -P cmake/man-page.cmake

# Roff text: a backslash is written \e, a minus sign \- (a plain '-' may be
# typeset as a hyphen); a line may not start with a control character ('.'
# or an apostrophe).
function(roff_text text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# The entries of OPTIONS_DOC, as variables DOC_<name> and the list DOC_NAMES.
# A ';' of the text is kept aside meanwhile, as an ASCII unit separator.
macro(read_option_docs)
  set(DOC_NAMES "")
  if(DEFINED OPTIONS_DOC)
    file(READ "${OPTIONS_DOC}" doc_text)
    string(REPLACE ";" "${SEMICOLON}" doc_text "${doc_text}")
    string(REPLACE "\n" ";" doc_lines "${doc_text}")
    set(doc_name "")
    foreach(doc_line IN LISTS doc_lines)
      if(doc_line MATCHES "^\\.\\\\\" --([a-z0-9-]+)$")
        set(doc_name "${CMAKE_MATCH_1}")
        list(APPEND DOC_NAMES "${doc_name}")
        set(DOC_${doc_name} "")
      elseif(NOT doc_name STREQUAL "")
        string(APPEND DOC_${doc_name} "${doc_line}\n")
      endif()
    endforeach()
  endif()
endmacro()

# One usage line, "  --name[=VALUE]   help", as a tagged paragraph: the
# option's entry from OPTIONS_DOC, else its help. A value that lists its
# words ("live|classic") is literal, a placeholder ("SIZE") italic.
function(option_entry line out_var)
  if(NOT line MATCHES "^  --([a-z0-9-]+)(\\[?=[^ ]+)? +(.*)$")
    message(FATAL_ERROR "man-page: cannot read the option line '${line}'")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(value "${CMAKE_MATCH_2}")
  roff_text("${CMAKE_MATCH_3}" body)
  if(DEFINED DOC_${name})
    string(STRIP "${DOC_${name}}" body)
  endif()
  string(REPLACE "-" "\\-" roff_name "${name}")
  set(tag "\\fB\\-\\-${roff_name}\\fR")
  if(value MATCHES "^(\\[?)=([a-z]+(\\|[a-z]+)+)(\\]?)$")
    string(REPLACE "|" "\\fR|\\fB" words "${CMAKE_MATCH_2}")
    set(tag "${tag}${CMAKE_MATCH_1}=\\fB${words}\\fR${CMAKE_MATCH_4}")
  elseif(value MATCHES "^(\\[?)=([^]]+)(\\]?)$")
    set(tag "${tag}${CMAKE_MATCH_1}=\\fI${CMAKE_MATCH_2}\\fR${CMAKE_MATCH_3}")
  endif()
  set(${out_var} ".TP\n${tag}\n${body}" PARENT_SCOPE)
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
read_option_docs()
string(REPLACE ";" "${SEMICOLON}" block "${block}")
string(REPLACE "\n" ";" lines "${block}")
set(entries "")
set(listed "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  --([a-z0-9-]+)")
    list(APPEND listed "${CMAKE_MATCH_1}")
    option_entry("${line}" entry)
    list(APPEND entries "${entry}")
  endif()
endforeach()
# An entry for an option the binary does not have is out of date.
foreach(documented IN LISTS DOC_NAMES)
  if(NOT documented IN_LIST listed)
    message(FATAL_ERROR "man-page: ${OPTIONS_DOC} documents --${documented}, which '${NINJA} -h' does not list")
  endif()
endforeach()
list(JOIN entries "\n" RONIN_OPTIONS)
string(REPLACE "${SEMICOLON}" ";" RONIN_OPTIONS "${RONIN_OPTIONS}")
set(RONIN_VERSION "${VERSION}")
configure_file("${INPUT}" "${OUTPUT}" @ONLY)
