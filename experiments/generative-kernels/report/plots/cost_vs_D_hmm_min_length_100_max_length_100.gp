# kexp plot; run `gnuplot cost_vs_D_hmm_min_length_100_max_length_100.gp` here to redraw cost_vs_D_hmm_min_length_100_max_length_100.svg
set terminal svg size 1000,924 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_hmm_min_length_100_max_length_100.svg'
set title 'time against the feature dimension D: hmm, n = 400 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'hmm: max_length=100, min_length=100, model_seed=1, models=2, separation=0.25, standardize=false, states=3, symbols=4,' at screen 0.01, screen 0.0866 left font ',12'
set label 101 'test_fraction=0.2' at screen 0.01, screen 0.0628 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0390 left font ',12'
set label 103 'n = 400 is above every D drawn.' at screen 0.01, screen 0.0152 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('4' 4, '16' 16, '64' 64, '256' 256)
set logscale x
set logscale y
$line0 << EOD
4 0.0027666870000000003 0.002624495 0.009037178
16 0.004283070666666667 0.0040657110000000005 0.008038159
64 0.02132180666666667 0.017508436 0.032117943
256 0.0661634045 0.045549967 0.095664688
EOD
$line1 << EOD
4 0.0027749263333333336 0.002626159 0.005559638
16 0.0042822189999999994 0.004060821 0.004683428999999999
64 0.021284197666666668 0.017396823999999998 0.030235853
256 0.06621159916666666 0.04543573 0.092880499
EOD
$line2 << EOD
4 0.002804018 0.002641638 0.005456042
16 0.004358727333333334 0.004109332 0.0046447450000000005
64 0.021280203666666667 0.017505731 0.030206978
256 0.0661475915 0.045565416 0.092614466
EOD
$line3 << EOD
4 0.0063981310000000005 0.002584681 0.010890112
16 0.006158077666666667 0.004045673 0.010062404
64 0.021879794666666664 0.01754263 0.035822203
256 0.07078813716666667 0.045483881000000004 0.098035072
EOD
$line4 << EOD
4 0.000798341 0.0007012380000000001 0.001668698
16 0.0013129566666666666 0.00125757 0.001537949
64 0.0016226666666666666 0.0015448610000000002 0.0018249030000000001
256 0.0023580953333333333 0.002187678 0.005198615
EOD
$line5 << EOD
4 0.00079831 0.000701227 0.001667685
16 0.0013128736666666665 0.00125747 0.001577396
64 0.0016221023333333334 0.001545242 0.001809564
256 0.0023533393333333335 0.002205362 0.005176424000000001
EOD
$line6 << EOD
4 0.0007983176666666666 0.0007012279999999999 0.001668147
16 0.0013128969999999997 0.001257479 0.001536718
64 0.0016232640000000001 0.001546725 0.001848678
256 0.0023563389999999994 0.002194861 0.005332849000000001
EOD
$line7 << EOD
4 0.0007983166666666666 0.000701207 0.0016678659999999998
16 0.0013129133333333331 0.0012575689999999998 0.001536819
64 0.0016222723333333333 0.0015458530000000002 0.0018361229999999998
256 0.0023498153333333335 0.002195503 0.005177686
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=1', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.001', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.01', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#009E73' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.1', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_ridge (primal) · spectrum normalize=true lambda=1'
