external_url 'https://gitlab.example.com'
postgres_exporter['per_table_stats'] = true
gitlab_rails['incoming_email_delivery_method'] = "sidekiq"
sidekiq['queue_selector'] = true
