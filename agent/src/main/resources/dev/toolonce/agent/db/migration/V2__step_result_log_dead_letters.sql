-- Results the consumer dead-lettered are recorded here too, so that no agent step waits silently
-- (docs/failure-model.md, "Poison records"): whatever could be read of them, the reason, and where the
-- record sits in Kafka. An unreadable record may name no intent, status or version.
ALTER TABLE step_result_log ALTER COLUMN intent_message_id DROP NOT NULL;
ALTER TABLE step_result_log ALTER COLUMN status DROP NOT NULL;
ALTER TABLE step_result_log ALTER COLUMN call_version DROP NOT NULL;
ALTER TABLE step_result_log ADD COLUMN dead_lettered boolean NOT NULL DEFAULT false;
ALTER TABLE step_result_log ADD COLUMN kafka_coordinates text;
CREATE INDEX step_result_log_dead_lettered ON step_result_log (received_at) WHERE dead_lettered;
