-- The delivery queue is only the pending messages: a partial index that a
-- finished message leaves, so recording a result writes no queue entry.
-- DropIndex
DROP INDEX "webhook_messages_status_next_attempt_at_idx";

-- CreateIndex
CREATE INDEX "webhook_messages_due_idx" ON "webhook_messages"("next_attempt_at") WHERE (status = 'pending');

-- Room on each page for the claim's update (lease and attempt count, no
-- indexed column) to stay a heap-only tuple update: no index entries.
ALTER TABLE "webhook_messages" SET (fillfactor = 80);
