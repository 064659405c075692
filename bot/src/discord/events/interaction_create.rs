//! INTERACTION_CREATE: clicks are the buttons'; slash commands and autocomplete are the
//! slash commands' framework's ([`crate::discord::interactions::slash::Commands`]).

use std::sync::Arc;

use serenity::all::Interaction;

use crate::discord::interactions::buttons;
use crate::discord::shared::Shared;

/// Hands a click to the buttons.
pub(crate) async fn interaction_create(shared: &Arc<Shared>, interaction: Interaction) {
    if let Interaction::Component(click) = interaction {
        buttons::on_click(shared.clone(), click).await;
    }
}
