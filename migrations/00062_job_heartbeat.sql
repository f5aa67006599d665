-- +goose Up
-- Rescue of jobs whose worker died (issue 8), without waiting out River's
-- rescuer (wall-time limit + margin, an hour by default):
--  * heartbeat_at is written by the attempt's worker every few seconds
--    (db/runner, JobService.Heartbeat) from its claim to its end; any
--    worker process re-queues a running job whose heartbeat is older than
--    about 30 s (JobService.RescueStaleJobs, FOR UPDATE SKIP LOCKED, no
--    leader needed).
--  * queue_id is River's id of the job's current queue entry (river_job.id,
--    no foreign key: River owns that table). A rescue gives the job a new
--    entry and cancels the old one; a worker holding an entry that is not
--    the current one cannot claim the job. NULL until the first claim when
--    the inserter did not record it.
ALTER TABLE jobs ADD COLUMN heartbeat_at timestamptz;
ALTER TABLE jobs ADD COLUMN queue_id bigint;
-- Attempts running during the upgrade count from their last write.
UPDATE jobs SET heartbeat_at = updated_at WHERE status IN ('running', 'cancelling');
CREATE INDEX jobs_active_heartbeat ON jobs (heartbeat_at) WHERE status IN ('running', 'cancelling');

-- +goose Down
DROP INDEX jobs_active_heartbeat;
ALTER TABLE jobs DROP COLUMN queue_id;
ALTER TABLE jobs DROP COLUMN heartbeat_at;
