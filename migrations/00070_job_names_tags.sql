-- +goose Up
-- Runs have names and tags, and record what they simulate.
-- name: given at submission or derived from the run (turbinesim.JobName);
-- tags: free labels, searched with GET /jobs?tag=; setup: the run's wind,
-- waves and time step as turbinesim.RunSetup JSON (NULL for jobs from
-- before it was recorded).
ALTER TABLE jobs ADD COLUMN name text NOT NULL DEFAULT '' CHECK (length(name) <= 200);
ALTER TABLE jobs ADD COLUMN tags text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 20);
ALTER TABLE jobs ADD COLUMN setup jsonb;

-- Existing jobs get the name the new ones derive where it can be read
-- back: a batch run is its turbine and its run id, another run of a
-- stored turbine the turbine's name, an uploaded deck its main file.
UPDATE jobs j SET name = left(concat_ws(' · ', (SELECT t.name FROM turbines t WHERE t.id = j.turbine_id), r.run_name), 200)
  FROM batch_runs r WHERE r.job_id = j.id;
UPDATE jobs j SET name = left(t.name, 200)
  FROM turbines t WHERE j.name = '' AND t.id = j.turbine_id;
UPDATE jobs SET name = left(entrypoint, 200) WHERE name = '';

CREATE INDEX jobs_tags ON jobs USING gin (tags);
CREATE INDEX jobs_org_name ON jobs (organization_id, lower(name));

-- +goose Down
DROP INDEX jobs_org_name;
DROP INDEX jobs_tags;
ALTER TABLE jobs DROP COLUMN setup;
ALTER TABLE jobs DROP COLUMN tags;
ALTER TABLE jobs DROP COLUMN name;
