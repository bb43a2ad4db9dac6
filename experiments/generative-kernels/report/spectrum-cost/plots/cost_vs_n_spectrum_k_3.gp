# kexp plot; run `gnuplot cost_vs_n_spectrum_k_3.gp` here to redraw cost_vs_n_spectrum_k_3.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_3.svg'
set title 'time against n: spectrum k=3 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'kernel_ridge_classifier: lambda=0.1' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'The primal map''s dimension D = 8000 is above every n drawn.' at screen 0.01, screen 0.0198 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
$line0 << EOD
200 0.023172089999999996 0.01375289 0.042257958
400 0.056591935333333336 0.052122262 0.07418876799999999
800 0.22199554066666669 0.20133103000000002 0.245904889
1600 0.8667238516666668 0.8592531459999999 0.876363204
EOD
$line1 << EOD
200 3.4456093536666668 3.4062728250000003 3.534209117
400 3.71852477 3.5523167740000003 4.020759743
800 4.856460689333334 4.749182639 5.069581074
1600 5.399219390666667 5.069993384 5.649028823
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
