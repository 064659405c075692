//! The interaction routes of the fake (commands, callbacks, follow-ups, pins), called through
//! serenity's own `Http` client.

use fakediscord::{FakeDiscord, FakeUser, InteractionKind, RouteKind};
use serenity::all::{
    ChannelId, Command, CommandOptionType, CreateCommand, CreateCommandOption,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    EditMessage, Http, HttpBuilder, InteractionId, MessageId,
};
use serenity::builder::Builder as _;
use serenity::http::HttpError;

const GUILD: u64 = 700;
const CHANNEL: u64 = 701;

fn http(fake: &FakeDiscord) -> Http {
    let http = HttpBuilder::new(fake.token())
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    http.set_application_id(fake.bot_user_id().into());
    http
}

fn status_of<T: std::fmt::Debug>(r: serenity::Result<T>) -> (u16, isize) {
    match r {
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) => {
            (e.status_code.as_u16(), e.error.code)
        }
        other => panic!("expected an unsuccessful request, got {other:?}"),
    }
}

#[tokio::test]
async fn commands_callbacks_follow_ups_and_pins() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "game");
    let ann = FakeUser::new(1, "ann");
    fake.add_member(GUILD, &ann, &[]);
    let http = http(&fake);

    // Registration: a bulk overwrite, checked like Discord's.
    let bid = CreateCommand::new("bid")
        .description("raise the bid")
        .add_option(
            CreateCommandOption::new(CommandOptionType::Integer, "amount", "pounds").required(true),
        );
    let made = Command::set_global_commands(&http, vec![bid])
        .await
        .unwrap();
    assert_eq!(made[0].name, "bid");
    assert_eq!(fake.global_commands().len(), 1);
    let bad = CreateCommand::new("Bad Name").description("x");
    assert_eq!(
        status_of(Command::set_global_commands(&http, vec![bad]).await).0,
        400
    );

    // A slash command: deferred once, the second answer refused.
    let slash = fake.slash_command(CHANNEL, &ann, "bid", &[("amount", "7")]);
    let id = InteractionId::new(slash.id);
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    defer
        .clone()
        .execute(&http, (id, &slash.token))
        .await
        .unwrap();
    assert_eq!(
        status_of(defer.execute(&http, (id, &slash.token)).await),
        (400, 40_060)
    );
    let record = fake.interaction(slash.id).unwrap();
    assert_eq!(record.kind, InteractionKind::Command);
    assert!(record.deferred() && record.ack_latency().is_some());
    assert_eq!(record.callback_statuses, [204, 400]);
    // The first follow-up fills the deferred message (private, like the defer).
    let first = CreateInteractionResponseFollowup::new().content("✅ done");
    let filled = first.execute(&http, (None, &slash.token)).await.unwrap();
    assert_eq!(
        Some(filled.id.get()),
        fake.interaction(slash.id).unwrap().original
    );
    let original = fake.message(filled.id.get()).unwrap();
    assert!(original.ephemeral && original.content == "✅ done");
    let second = CreateInteractionResponseFollowup::new()
        .content("more")
        .ephemeral(false);
    let more = second.execute(&http, (None, &slash.token)).await.unwrap();
    assert_ne!(more.id, filled.id);
    assert!(!fake.message(more.id.get()).unwrap().ephemeral);
    // Private messages are not in the history.
    let history = ChannelId::new(CHANNEL)
        .messages(&http, serenity::all::GetMessages::new())
        .await
        .unwrap();
    assert!(history.iter().all(|m| m.id != filled.id));
    assert!(history.iter().any(|m| m.id == more.id));

    // Autocomplete: the choices are recorded.
    let ask = fake.autocomplete(CHANNEL, &ann, "bid", &[("amount", "")], "amount");
    let choices = CreateInteractionResponse::Autocomplete(
        serenity::all::CreateAutocompleteResponse::new().add_int_choice("£7 (the least bid)", 7),
    );
    choices
        .execute(&http, (InteractionId::new(ask.id), &ask.token))
        .await
        .unwrap();
    let record = fake.interaction(ask.id).unwrap();
    assert_eq!(record.choices[0]["value"], 7);

    // Pins, and a message edit keeps the pin.
    let channel = ChannelId::new(CHANNEL);
    let status = channel.say(&http, "status").await.unwrap();
    http.pin_message(channel, status.id, None).await.unwrap();
    assert_eq!(fake.pins(CHANNEL), [status.id.get()]);
    let edited = channel
        .edit_message(&http, status.id, EditMessage::new().content("status 2"))
        .await
        .unwrap();
    assert!(edited.pinned);
    assert_eq!(http.get_pins(channel).await.unwrap()[0].content, "status 2");
    http.unpin_message(channel, status.id, None).await.unwrap();
    assert!(fake.pins(CHANNEL).is_empty());
    assert_eq!(
        status_of(http.pin_message(channel, MessageId::new(1), None).await).0,
        404
    );
    let routes: Vec<RouteKind> = fake.requests().iter().filter_map(|r| r.route).collect();
    for kind in [
        RouteKind::SetCommands,
        RouteKind::InteractionCallback,
        RouteKind::Followup,
        RouteKind::Pin,
        RouteKind::Unpin,
        RouteKind::GetPins,
    ] {
        assert!(routes.contains(&kind), "{kind:?} not called");
    }
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );
}
