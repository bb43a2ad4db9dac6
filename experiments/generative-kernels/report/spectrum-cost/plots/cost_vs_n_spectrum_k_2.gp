# kexp plot; run `gnuplot cost_vs_n_spectrum_k_2.gp` here to redraw cost_vs_n_spectrum_k_2.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_2.svg'
set title 'time against n: spectrum k=2 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'kernel_ridge_classifier: lambda=0.1' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
set arrow 1 from 400, graph 0 to 400, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 400' at 400, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
200 0.0259491485 0.013042085999999998 0.033529154
400 0.05438621916666667 0.048852636 0.066036916
800 0.241746473 0.18964161499999999 0.29021998800000004
1600 0.8495123220000002 0.8373433540000002 0.87597948
EOD
$line1 << EOD
200 0.0022058876666666664 0.0019821920000000002 0.008997610999999999
400 0.0034432746666666673 0.003286677 0.007133486
800 0.006080451333333334 0.005843586 0.006968683999999999
1600 0.011505748000000001 0.011177447 0.013966986
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
