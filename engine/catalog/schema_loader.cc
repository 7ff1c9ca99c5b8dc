#include "engine/catalog/schema_loader.h"

#include "engine/sql/parser.h"
#include "engine/storage/schema_table.h"

namespace engine::catalog {

namespace {

Status Malformed(const std::string& name) {
  return Status::Corruption("malformed database schema (" + name + ")");
}

// sqlite_schema itself, so that `SELECT * FROM sqlite_schema` works.
std::unique_ptr<TableInfo> SchemaTableInfo(const char* name, Db db) {
  auto t = std::make_unique<TableInfo>();
  t->name = name;
  t->db = db;
  t->root = kSchemaRootPage;
  const char* cols[] = {"type", "name", "tbl_name", "rootpage", "sql"};
  const char* types[] = {"TEXT", "TEXT", "TEXT", "INT", "TEXT"};
  for (int i = 0; i < 5; ++i) {
    ColumnInfo c;
    c.name = cols[i];
    c.type = types[i];
    c.affinity = AffinityOfType(types[i]);
    t->columns.push_back(c);
  }
  return t;
}

void AddSchemaTables(Schema* schema, Db db) {
  const bool temp = db == Db::kTemp;
  schema->AddTable(SchemaTableInfo(temp ? "sqlite_temp_schema" : "sqlite_schema", db));
  schema->AddTable(SchemaTableInfo(temp ? "sqlite_temp_master" : "sqlite_master", db));
}

}  // namespace

std::unique_ptr<Schema> EmptyTempSchema() {
  auto schema = std::make_unique<Schema>();
  AddSchemaTables(schema.get(), Db::kTemp);
  return schema;
}

Result<std::unique_ptr<Schema>> LoadSchema(BTree& tree, Db db) {
  ENGINE_ASSIGN_OR_RETURN(std::vector<SchemaEntry> entries, ReadSchema(tree));
  auto schema = std::make_unique<Schema>();
  AddSchemaTables(schema.get(), db);
  // Automatic indexes are described by their table's CREATE statement.
  std::map<std::string, std::unique_ptr<IndexInfo>> autos;
  for (const SchemaEntry& e : entries) {
    if (e.type != "table" && e.type != "view") continue;
    if (!e.sql) return Malformed(e.name);
    auto parsed = sql::ParseStatement(*e.sql);
    if (!parsed.ok()) return Malformed(e.name);
    if (e.type == "view") {
      const auto* cv = parsed->as<sql::CreateViewStmt>();
      if (cv == nullptr) return Malformed(e.name);
      auto v = std::make_unique<ViewInfo>();
      v->name = e.name;
      v->db = db;
      v->sql = *e.sql;
      v->columns = cv->columns;
      schema->AddView(std::move(v));
      continue;
    }
    const auto* ct = parsed->as<sql::CreateTableStmt>();
    if (ct == nullptr) return Malformed(e.name);
    auto t = TableFromAst(*ct, parsed->ast);
    if (!t.ok()) return Malformed(e.name);
    (*t)->root = e.rootpage;
    (*t)->db = db;
    for (auto& ix : AutoIndexesFor(*ct, **t)) autos[LowerCase(ix->name)] = std::move(ix);
    schema->AddTable(std::move(*t));
  }
  for (const SchemaEntry& e : entries) {
    if (e.type != "index") continue;
    const TableInfo* table = schema->FindTable(e.tbl_name);
    if (table == nullptr) return Malformed(e.name);
    std::unique_ptr<IndexInfo> ix;
    if (!e.sql) {
      auto it = autos.find(LowerCase(e.name));
      if (it == autos.end()) return Malformed(e.name);
      ix = std::move(it->second);
    } else {
      auto parsed = sql::ParseStatement(*e.sql);
      if (!parsed.ok()) return Malformed(e.name);
      const auto* ci = parsed->as<sql::CreateIndexStmt>();
      if (ci == nullptr) return Malformed(e.name);
      auto built = IndexFromAst(*ci, *table);
      if (!built.ok()) return Malformed(e.name);
      ix = std::move(*built);
    }
    ix->name = e.name;
    ix->db = db;
    ix->root = e.rootpage;
    schema->AddIndex(std::move(ix));
  }
  // Triggers last: each goes first in its table's list, so the table's
  // newest trigger fires first, as in SQLite.
  for (const SchemaEntry& e : entries) {
    if (e.type != "trigger") continue;
    if (!e.sql) return Malformed(e.name);
    auto parsed = sql::ParseStatement(*e.sql);
    if (!parsed.ok()) return Malformed(e.name);
    const auto* ct = parsed->as<sql::CreateTriggerStmt>();
    if (ct == nullptr) return Malformed(e.name);
    auto t = std::make_unique<TriggerInfo>();
    t->name = e.name;
    t->db = db;
    // A TEMP trigger names main's table by "main.", or by a name temp lacks.
    const bool on_main =
        db == Db::kTemp && (EqualsNoCase(ct->table_schema, "main") ||
                            (ct->table_schema.empty() && schema->FindTable(ct->table) == nullptr &&
                             schema->FindView(ct->table) == nullptr));
    t->table_db = on_main ? Db::kMain : db;
    t->table = ct->table;
    t->sql = *e.sql;
    t->timing = ct->timing;
    t->event = ct->event;
    t->columns = ct->columns;
    schema->AddTrigger(std::move(t));
  }
  return schema;
}

}  // namespace engine::catalog
