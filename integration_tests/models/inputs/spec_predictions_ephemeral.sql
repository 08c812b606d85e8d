{{ config(materialized='ephemeral') }}
select * from {{ ref('spec_predictions') }}
