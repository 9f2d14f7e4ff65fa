# What `cmake --install` puts in place, and the .deb CPack builds from it:
#   bin/kedb                         the command
#   share/kedb/kb/                   the bundled knowledge base (kedb finds it
#                                    beside its bin/ folder)
#   include/kedb/*.h                 the public API (engine.h is the door)
#   lib/libkedb_*.a                  the layers a program embedding kedb links
#   lib/cmake/kedb/                  find_package(kedb): the kedb::kedb target
#   lib/pkgconfig/kedb.pc            pkg-config --cflags --libs kedb
#   share/bash-completion/completions/kedb, share/zsh/vendor-completions/_kedb,
#   share/fish/vendor_completions.d/kedb.fish
#                                    shell completions, where each shell's
#                                    own setup looks (no rc file to edit)
#   share/man/man1/kedb.1            the man page
# The embedding library is the layers up to the engine and lint; the query
# layer, renderers and servers are the command's own and are not installed.
include(CMakePackageConfigHelpers)

set(KEDB_EMBED_LAYERS util regex record kb logs match search engine lint)
add_library(kedb_embed INTERFACE)
target_link_libraries(kedb_embed INTERFACE kedb_engine kedb_lint)
set_target_properties(kedb_embed PROPERTIES EXPORT_NAME kedb)
add_library(kedb::kedb ALIAS kedb_embed)

set(KEDB_EMBED_TARGETS kedb_embed)
foreach(layer IN LISTS KEDB_EMBED_LAYERS)
  list(APPEND KEDB_EMBED_TARGETS kedb_${layer})
endforeach()
install(TARGETS ${KEDB_EMBED_TARGETS} EXPORT kedbTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/kedb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS kedb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY kb/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kedb/kb PATTERN ".kedb-cache" EXCLUDE)
# Written at build time by the built kedb (KEDB_SHELL_DOCS in CMakeLists.txt).
install(FILES ${CMAKE_BINARY_DIR}/kedb.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME kedb)
install(FILES ${CMAKE_BINARY_DIR}/_kedb DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${CMAKE_BINARY_DIR}/kedb.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES ${CMAKE_BINARY_DIR}/kedb.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(KEDB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kedb)
install(EXPORT kedbTargets NAMESPACE kedb:: DESTINATION ${KEDB_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/kedbConfig.cmake.in ${CMAKE_BINARY_DIR}/kedbConfig.cmake
                              INSTALL_DESTINATION ${KEDB_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/kedbConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/kedbConfig.cmake ${CMAKE_BINARY_DIR}/kedbConfigVersion.cmake
        DESTINATION ${KEDB_CMAKE_DIR})

# pkg-config: the layers top down, as a static link needs them.
set(KEDB_PC_LIBS "")
foreach(layer lint engine search match logs kb record regex util)
  string(APPEND KEDB_PC_LIBS " -lkedb_${layer}")
endforeach()
file(RELATIVE_PATH KEDB_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")  # "../.." for lib/pkgconfig
string(REGEX REPLACE "/$" "" KEDB_PC_UP "${KEDB_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/kedb.pc.in ${CMAKE_BINARY_DIR}/kedb.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/kedb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# `cpack -G DEB` in the build folder: kedb_<version>_<arch>.deb. The shared
# libraries it needs are found by dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME kedb)
set(CPACK_PACKAGE_VENDOR "kedb")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Known-error database: finds known errors in logs and says what fixes them")
set(CPACK_PACKAGE_CONTACT "kedb maintainers <kedb@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# A program that embeds kedb builds with these.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libpcre2-dev, libhyperscan-dev, libxxhash-dev, zlib1g-dev, libzstd-dev, libfmt-dev, nlohmann-json3-dev")  # the debug info is most of the binary's size
include(CPack)
