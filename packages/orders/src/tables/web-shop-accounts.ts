import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The web shop's customer accounts (schemas/migrations/0044_web_shop_accounts.sql; decision 0029). */
export const webShopAccounts = sqliteTable("web_shop_accounts", {
  accountId: text("account_id").primaryKey(),
  email: text("email"),
  name: text("name"),
  createdAt: integer("created_at").notNull(),
  deletedAt: integer("deleted_at"),
});
