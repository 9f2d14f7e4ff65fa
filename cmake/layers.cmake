# The source layers, bottom up, and what each may include. A layer is a
# folder under src/ and a static library (kedb_<layer>); it links and
# includes only the layers named here, which all come before it. The build
# checks the includes (check_layers.cmake) before compiling anything, so a
# backward include fails the build with the file and line that made it.
set(KEDB_LAYERS util regex record store kb logs match search engine lint mine render app serve stream cli)
set(KEDB_LAYER_util "")
set(KEDB_LAYER_regex util)
set(KEDB_LAYER_record util)
set(KEDB_LAYER_store record util)
set(KEDB_LAYER_kb record util)
set(KEDB_LAYER_logs regex util)
set(KEDB_LAYER_match kb record logs regex util)
set(KEDB_LAYER_search kb record util)
set(KEDB_LAYER_engine match search kb record logs regex util)
set(KEDB_LAYER_lint match kb record logs regex util)
set(KEDB_LAYER_mine logs record regex util)
set(KEDB_LAYER_render mine lint engine match search store kb record logs util)
set(KEDB_LAYER_app render mine lint engine match search store kb record logs regex util)
set(KEDB_LAYER_serve app engine store record util)
set(KEDB_LAYER_stream app engine util)
set(KEDB_LAYER_cli stream serve app store util)
# The public headers in include/kedb/ belong to the layer that implements
# them.
set(KEDB_PUBLIC_status.h util)
set(KEDB_PUBLIC_diagnostic.h record)
set(KEDB_PUBLIC_record.h record)
set(KEDB_PUBLIC_knowledge_base.h kb)
set(KEDB_PUBLIC_graph.h kb)
set(KEDB_PUBLIC_match.h match)
set(KEDB_PUBLIC_search.h search)
set(KEDB_PUBLIC_engine.h engine)
set(KEDB_PUBLIC_lint.h lint)
set(KEDB_PUBLIC_block_kind.h logs)
