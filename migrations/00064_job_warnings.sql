-- +goose Up
-- The deck warnings of a job's submission (turbinesim.DeckWarnings: the
-- validator's "suspicious but OpenFAST would run" findings as
-- "file:line: variable: message", and the turbine builder's warnings),
-- stored with the job in its insert so that GET /jobs/{id}, the job page
-- and an idempotent replay say what the submission said. A JSON array of
-- strings; jobs from before this migration have none recorded.
ALTER TABLE jobs ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]'::jsonb;

-- +goose Down
ALTER TABLE jobs DROP COLUMN warnings;
