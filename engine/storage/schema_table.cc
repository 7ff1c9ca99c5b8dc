#include "engine/storage/schema_table.h"

#include "engine/storage/record.h"

namespace engine {

namespace {

Status decode_entry(std::span<const uint8_t> payload, int64_t rowid, RecordReader* reader,
                    SchemaEntry* e) {
  ENGINE_RETURN_IF_ERROR(reader->Parse(payload));
  const std::string where = "sqlite_schema row " + std::to_string(rowid);
  if (reader->column_count() < 5) return Status::Corruption(where + " has fewer than 5 columns");
  for (int i = 0; i < 3; ++i) {
    if (reader->column(i).type() != ValueType::kText) {
      return Status::Corruption(where + ": column " + std::to_string(i) + " is not text");
    }
  }
  const Value root = reader->column(3);
  const Value sql = reader->column(4);
  if (root.type() != ValueType::kInteger || root.as_int() < 0 || root.as_int() > 0xffffffffll) {
    return Status::Corruption(where + ": rootpage is not a page number");
  }
  if (sql.type() != ValueType::kText && !sql.is_null()) {
    return Status::Corruption(where + ": sql is neither text nor NULL");
  }
  e->type = std::string(reader->column(0).as_text());
  e->name = std::string(reader->column(1).as_text());
  e->tbl_name = std::string(reader->column(2).as_text());
  e->rootpage = static_cast<uint32_t>(root.as_int());
  e->sql = sql.is_null() ? std::nullopt : std::optional<std::string>(sql.as_text());
  e->rowid = rowid;
  return Status::OK();
}

Status bump_cookie(BTree& tree) {
  return tree.pager().SetSchemaCookie(tree.pager().schema_cookie() + 1);
}

}  // namespace

Result<std::vector<SchemaEntry>> ReadSchema(BTree& tree) {
  std::vector<SchemaEntry> out;
  BtCursor c(&tree, kSchemaRootPage);
  RecordReader reader;
  ENGINE_RETURN_IF_ERROR(c.first());
  if (!c.is_table()) return Status::Corruption("sqlite_schema (page 1) is not a table b-tree");
  while (c.valid()) {
    std::span<const uint8_t> payload;
    ENGINE_RETURN_IF_ERROR(c.payload(&payload));
    SchemaEntry e;
    ENGINE_RETURN_IF_ERROR(decode_entry(payload, c.rowid(), &reader, &e));
    out.push_back(std::move(e));
    ENGINE_RETURN_IF_ERROR(c.next());
  }
  return out;
}

Status AddSchemaEntry(BTree& tree, SchemaEntry* entry) {
  int64_t rowid = 1;
  {
    BtCursor c(&tree, kSchemaRootPage);
    ENGINE_RETURN_IF_ERROR(c.last());
    if (c.valid()) rowid = c.rowid() + 1;
  }
  const Value row[5] = {
      Value::Text(entry->type),
      Value::Text(entry->name),
      Value::Text(entry->tbl_name),
      Value::Integer(entry->rootpage),
      entry->sql ? Value::Text(*entry->sql) : Value::Null(),
  };
  RecordBuilder builder(tree.file_format());
  ENGINE_RETURN_IF_ERROR(tree.Insert(kSchemaRootPage, rowid, builder.Build(row, 5)));
  entry->rowid = rowid;
  return bump_cookie(tree);
}

Status RemoveSchemaEntry(BTree& tree, std::string_view name) {
  BtCursor c(&tree, kSchemaRootPage);
  RecordReader reader;
  bool removed = false;
  ENGINE_RETURN_IF_ERROR(c.first());
  while (c.valid()) {
    std::span<const uint8_t> payload;
    ENGINE_RETURN_IF_ERROR(c.payload(&payload));
    SchemaEntry e;
    ENGINE_RETURN_IF_ERROR(decode_entry(payload, c.rowid(), &reader, &e));
    if (e.name == name) {
      ENGINE_RETURN_IF_ERROR(tree.Delete(&c));
      removed = true;
    }
    ENGINE_RETURN_IF_ERROR(c.next());
  }
  if (!removed) return Status::NotFound("no schema entry named " + std::string(name));
  return bump_cookie(tree);
}

}  // namespace engine
