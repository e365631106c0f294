//! E-mail: templates, what each mail says (`contexts`, in the words of
//! `crate::describe`), and composing and sending messages. What to send,
//! and to whom, is decided in the use cases' transactions
//! (`service::notify`); the task that drains the outbox (`store::outbox`)
//! is `workers::outbox`.

pub mod contexts;
pub mod picture;
pub mod pictures;
pub mod schedule;
pub mod sender;
pub mod smtp;
pub mod templates;

/// Where mails point to and the host their Message-IDs name.
#[derive(Clone, Debug)]
pub struct Links {
    pub base_url: String,
    pub host: String,
}

impl Links {
    pub fn new(public_base_url: &str) -> Links {
        let after_scheme = public_base_url
            .split_once("://")
            .map_or(public_base_url, |(_, rest)| rest);
        let authority = after_scheme.split('/').next().unwrap_or("");
        let host_port = authority.rsplit('@').next().unwrap_or(authority);
        let host = match host_port.rsplit_once(':') {
            Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
            _ => host_port,
        };
        Links {
            base_url: public_base_url.trim_end_matches('/').to_string(),
            host: if host.is_empty() { "localhost" } else { host }.to_string(),
        }
    }

    /// The web client's mail settings page (and List-Unsubscribe target):
    /// a person follows the link in a browser, where the API endpoint
    /// behind it would only answer 401 without a token.
    pub fn settings_url(&self) -> String {
        format!("{}/settings", self.base_url)
    }

    /// Adds the links every template shows to a mail's `context`.
    pub fn fill(&self, context: &mut serde_json::Value) {
        context["base_url"] = self.base_url.clone().into();
        context["settings_url"] = self.settings_url().into();
    }

    /// The full Message-ID of a stored local part.
    pub fn message_id(&self, local: &str) -> String {
        format!("<{local}@{}>", self.host)
    }

    /// The root every mail of one game refers to, so they form one thread.
    pub fn thread_root(&self, game_id: &str) -> String {
        format!("<game-{game_id}@{}>", self.host)
    }
}

/// Serving with mail required but no SMTP server would quietly turn every
/// mail into a file nobody reads.
pub fn check_required(config: &crate::config::Config) -> Result<(), String> {
    if config.mail.required && config.mail.smtp_url.is_none() {
        Err("MAIL_REQUIRED is true but SMTP_URL is not set: mails would only be written to files under the data directory".into())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Links;

    #[test]
    fn message_ids_name_the_public_host() {
        let l = Links::new("https://play.example.org:8443/hexpost/");
        assert_eq!(l.host, "play.example.org");
        assert_eq!(l.base_url, "https://play.example.org:8443/hexpost");
        assert_eq!(l.thread_root("g1"), "<game-g1@play.example.org>");
        assert_eq!(Links::new("http://127.0.0.1:8080").host, "127.0.0.1");
    }
}
