-- +goose Up
-- Batches of jobs (issue 11): a design load basis or a parametric sweep,
-- submitted as one charge and one transaction. A batch's status is not
-- stored: it is derived from its jobs when read (db/batches.go).
CREATE TABLE batches (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('dlc', 'parametric')),
    -- Finished batches survive the deletion of their turbine, like jobs.
    turbine_id      uuid REFERENCES turbines (id) ON DELETE SET NULL,
    name            text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    request         jsonb NOT NULL,
    run_count       integer NOT NULL CHECK (run_count >= 1),
    price_cents     bigint NOT NULL CHECK (price_cents >= 0),
    tokens          bigint NOT NULL CHECK (tokens >= 0),
    submitted_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batches_org_created ON batches (organization_id, created_at DESC, id);

-- The runs of a batch in submission order: the run's name (a DLC run id
-- such as DLC1.2_V12.0_S3_Y+0, or a sweep point id) and its job.
CREATE TABLE batch_runs (
    batch_id uuid NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 0),
    run_name text NOT NULL CHECK (length(run_name) BETWEEN 1 AND 300),
    job_id   uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    PRIMARY KEY (batch_id, position),
    UNIQUE (batch_id, run_name),
    UNIQUE (job_id)
);

-- jobs.batch_id (00030) now points at a batch.
ALTER TABLE jobs ADD CONSTRAINT jobs_batch_fk FOREIGN KEY (batch_id) REFERENCES batches (id) ON DELETE CASCADE;
CREATE INDEX jobs_batch ON jobs (batch_id) WHERE batch_id IS NOT NULL;

-- +goose Down
DROP INDEX jobs_batch;
ALTER TABLE jobs DROP CONSTRAINT jobs_batch_fk;
DROP TABLE batch_runs;
DROP TABLE batches;
